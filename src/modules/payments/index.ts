import { createRouter } from '../../lib/router';

export const paymentsRouter = createRouter();
