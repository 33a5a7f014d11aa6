import { createRouter } from '../../lib/router';

export const vendorsRouter = createRouter();
