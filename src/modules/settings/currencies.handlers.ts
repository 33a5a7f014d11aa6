import { isStaff } from '../../lib/access';
import { crudHandlers } from '../../lib/crud-handlers';
import * as service from './currencies.service';

// Staff (settings:read or settings:write) see disabled currencies too.
export const currencyHandlers = crudHandlers(
  {
    list: (db, query, principal) => service.listCurrencies(db, query, isStaff(principal, 'settings')),
    get: (db, code, principal) => service.getCurrency(db, code, isStaff(principal, 'settings')),
    create: service.createCurrency,
    update: service.updateCurrency,
    remove: service.deleteCurrency,
  },
  { path: '/settings/currencies', noun: 'currency', key: 'code' },
);
