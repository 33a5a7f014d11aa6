import { crudRouter } from '../../lib/crud-router';
import { couponHandlers } from './coupons.handlers';
import { couponRoutes } from './coupons.routes';

export const couponsRouter = crudRouter(couponRoutes, couponHandlers);
