import { createRouter } from '../../lib/router';

export const inventoryRouter = createRouter();
