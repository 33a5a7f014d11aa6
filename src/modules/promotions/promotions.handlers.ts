import { crudHandlers } from '../../lib/crud-handlers';
import * as service from './promotions.service';

export const promotionHandlers = crudHandlers(
  {
    list: (db, query) => service.listPromotions(db, query),
    get: (db, idOrCode) => service.getPromotion(db, idOrCode),
    create: service.createPromotion,
    update: service.updatePromotion,
    remove: (db, idOrCode) => service.deletePromotion(db, idOrCode),
  },
  { path: '/promotions', noun: 'promotion' },
);
