import { createRouter } from '../../lib/router';

export const shipmentsRouter = createRouter();
