import { createRouter } from '../../lib/router';

export const ordersRouter = createRouter();
