import { createRouter } from '../../lib/router';

export const cartsRouter = createRouter();
