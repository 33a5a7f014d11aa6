import { createRouter } from '../../lib/router';

export const settingsRouter = createRouter();
