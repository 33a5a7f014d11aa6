import { crudHandlers } from '../../lib/crud-handlers';
import * as service from './price-lists.service';

export const priceListHandlers = crudHandlers(
  {
    list: (db, query) => service.listPriceLists(db, query),
    get: (db, id) => service.getPriceList(db, id),
    create: service.createPriceList,
    update: service.updatePriceList,
    remove: service.deletePriceList,
  },
  { path: '/price-lists', noun: 'price list' },
);
