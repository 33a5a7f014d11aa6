import { crudHandlers } from '../../lib/crud-handlers';
import type { ParsedListQuery } from '../../lib/query';
import type { couponListQuery } from './coupons.query';
import * as service from './coupons.service';

export const couponHandlers = crudHandlers(
  {
    // Not passed through: the service's third parameter is the clock, not the caller.
    list: (db, query: ParsedListQuery<typeof couponListQuery.filters>) => service.listCoupons(db, query),
    get: (db, idOrCode) => service.getCoupon(db, idOrCode),
    create: service.createCoupon,
    update: service.updateCoupon,
    remove: service.deleteCoupon,
  },
  { path: '/coupons', noun: 'coupon' },
);
