import { createRouter } from '../../lib/router';
import * as handlers from './vendors.handlers';
import * as routes from './vendors.routes';

export const vendorsRouter = createRouter()
  .openapi(routes.listVendors, handlers.listVendors)
  .openapi(routes.createVendor, handlers.createVendor)
  .openapi(routes.getVendor, handlers.getVendor)
  .openapi(routes.updateVendor, handlers.updateVendor)
  .openapi(routes.deleteVendor, handlers.deleteVendor);
