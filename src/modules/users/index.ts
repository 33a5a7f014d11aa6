import { createRouter } from '../../lib/router';

export const usersRouter = createRouter();
