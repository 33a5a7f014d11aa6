import { createRouter } from '../../lib/router';

export const apiKeysRouter = createRouter();
