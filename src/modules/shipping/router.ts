import { crudRouter } from '../../lib/crud-router';
import { createRouter } from '../../lib/router';
import { shippingMethodHandlers } from './methods.handlers';
import { shippingMethodRoutes } from './methods.routes';
import { shippingZoneHandlers } from './zones.handlers';
import { shippingZoneRoutes } from './zones.routes';

export const shippingRouter = createRouter().route('/', crudRouter(shippingZoneRoutes, shippingZoneHandlers)).route('/', crudRouter(shippingMethodRoutes, shippingMethodHandlers));
