import { crudHandlers } from '../../lib/crud-handlers';
import * as service from './taxes.service';

export const taxRateHandlers = crudHandlers(
  {
    list: service.listTaxRates,
    get: service.getTaxRate,
    create: service.createTaxRate,
    update: service.updateTaxRate,
    remove: service.deleteTaxRate,
  },
  { path: '/settings/taxes', noun: 'tax rate' },
);
