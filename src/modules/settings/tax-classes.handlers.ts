import { crudHandlers } from '../../lib/crud-handlers';
import * as service from './tax-classes.service';

export const taxClassHandlers = crudHandlers(
  {
    list: service.listTaxClasses,
    get: service.getTaxClass,
    create: service.createTaxClass,
    update: service.updateTaxClass,
    remove: service.deleteTaxClass,
  },
  { path: '/settings/tax-classes', noun: 'tax class', key: 'code' },
);
