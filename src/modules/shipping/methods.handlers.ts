import { nestedCrudHandlers } from '../../lib/crud-handlers';
import * as service from './methods.service';

export const shippingMethodHandlers = nestedCrudHandlers(
  {
    list: service.listShippingMethods,
    get: service.getShippingMethod,
    create: service.createShippingMethod,
    update: service.updateShippingMethod,
    remove: service.deleteShippingMethod,
  },
  { path: '/settings/shipping-zones/{id}/methods', noun: 'shipping method', param: 'methodId', parent: { param: 'id' }, whole: { max: service.MAX_METHODS_PER_ZONE } },
);
