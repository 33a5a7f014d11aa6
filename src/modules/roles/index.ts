import { createRouter } from '../../lib/router';

export const rolesRouter = createRouter();
