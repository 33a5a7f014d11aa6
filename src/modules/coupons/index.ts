import { createRouter } from '../../lib/router';
import * as handlers from './coupons.handlers';
import * as routes from './coupons.routes';

export const couponsRouter = createRouter()
  .openapi(routes.listCoupons, handlers.listCoupons)
  .openapi(routes.createCoupon, handlers.createCoupon)
  .openapi(routes.getCoupon, handlers.getCoupon)
  .openapi(routes.updateCoupon, handlers.updateCoupon)
  .openapi(routes.deleteCoupon, handlers.deleteCoupon);
