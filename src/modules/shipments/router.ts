import { createRouter } from '../../lib/router';
import * as handlers from './shipments.handlers';
import * as routes from './shipments.routes';

export const shipmentsRouter = createRouter()
  .openapi(routes.createShipment, handlers.createShipment)
  .openapi(routes.listOrderShipments, handlers.listOrderShipments)
  .openapi(routes.listShipments, handlers.listShipments)
  .openapi(routes.getShipment, handlers.getShipment)
  .openapi(routes.updateShipment, handlers.updateShipment);
