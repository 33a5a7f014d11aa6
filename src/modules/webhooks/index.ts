import { createRouter } from '../../lib/router';

export const webhooksRouter = createRouter();
