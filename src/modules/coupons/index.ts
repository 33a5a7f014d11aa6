import { createRouter } from '../../lib/router';

export const couponsRouter = createRouter();
