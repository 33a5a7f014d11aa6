import { createRouter } from '../../lib/router';

export const authRouter = createRouter();
