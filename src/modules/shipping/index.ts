import { crudRouter } from '../../lib/crud-router';
import { createRouter } from '../../lib/router';
import * as methodHandlers from './methods.handlers';
import * as methodRoutes from './methods.routes';
import { shippingZoneHandlers } from './zones.handlers';
import { shippingZoneRoutes } from './zones.routes';

export const shippingRouter = createRouter()
  .route('/', crudRouter(shippingZoneRoutes, shippingZoneHandlers))
  .openapi(methodRoutes.listShippingMethods, methodHandlers.listShippingMethods)
  .openapi(methodRoutes.createShippingMethod, methodHandlers.createShippingMethod)
  .openapi(methodRoutes.getShippingMethod, methodHandlers.getShippingMethod)
  .openapi(methodRoutes.updateShippingMethod, methodHandlers.updateShippingMethod)
  .openapi(methodRoutes.deleteShippingMethod, methodHandlers.deleteShippingMethod);
