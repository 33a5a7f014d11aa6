import { crudHandlers } from '../../lib/crud-handlers';
import * as service from './zones.service';

export const shippingZoneHandlers = crudHandlers(
  {
    list: service.listShippingZones,
    get: service.getShippingZone,
    create: service.createShippingZone,
    update: service.updateShippingZone,
    remove: service.deleteShippingZone,
  },
  { path: '/settings/shipping-zones', noun: 'shipping zone' },
);
