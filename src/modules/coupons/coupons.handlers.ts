import { created, list, noContent, ok, pagination } from '../../lib/envelope';
import type { AppRouteHandler } from '../../lib/openapi';
import { project } from '../../lib/query';
import type * as routes from './coupons.routes';
import * as service from './coupons.service';

export const listCoupons: AppRouteHandler<typeof routes.listCoupons> = async (c) => {
  const query = c.req.valid('query');
  const { items, total } = await service.listCoupons(c.var.db, query);
  return list(c, items.map((item) => project(item, query.fields)), pagination(query.page, query.limit, total));
};

export const getCoupon: AppRouteHandler<typeof routes.getCoupon> = async (c) => {
  return ok(c, project(await service.getCoupon(c.var.db, c.req.valid('param').id), c.req.valid('query').fields));
};

export const createCoupon: AppRouteHandler<typeof routes.createCoupon> = async (c) => {
  const coupon = await service.createCoupon(c.var.db, c.req.valid('json'));
  return created(c, coupon, `/api/coupons/${coupon.id}`, 'Coupon created');
};

export const updateCoupon: AppRouteHandler<typeof routes.updateCoupon> = async (c) => {
  return ok(c, await service.updateCoupon(c.var.db, c.req.valid('param').id, c.req.valid('json')), 'Coupon updated');
};

export const deleteCoupon: AppRouteHandler<typeof routes.deleteCoupon> = async (c) => {
  await service.deleteCoupon(c.var.db, c.req.valid('param').id);
  return noContent(c);
};
