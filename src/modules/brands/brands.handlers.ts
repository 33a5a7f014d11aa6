import { crudHandlers } from '../../lib/crud-handlers';
import * as service from './brands.service';

export const brandHandlers = crudHandlers(
  {
    list: service.listBrands,
    get: service.getBrand,
    create: service.createBrand,
    update: service.updateBrand,
    remove: service.deleteBrand,
  },
  { path: '/brands', noun: 'brand' },
);
