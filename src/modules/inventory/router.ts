import { createRouter } from '../../lib/router';
import * as handlers from './inventory.handlers';
import * as routes from './inventory.routes';

export const inventoryRouter = createRouter()
  .openapi(routes.listInventory, handlers.listInventory)
  .openapi(routes.createAdjustment, handlers.createAdjustment)
  .openapi(routes.listAdjustments, handlers.listAdjustments);
