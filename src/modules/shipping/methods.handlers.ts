import { created, list, noContent, ok, pagination } from '../../lib/envelope';
import type { AppRouteHandler } from '../../lib/openapi';
import type * as routes from './methods.routes';
import * as service from './methods.service';

export const listShippingMethods: AppRouteHandler<typeof routes.listShippingMethods> = async (c) => {
  const methods = await service.listShippingMethods(c.var.db, c.req.valid('param').id);
  return list(c, methods, pagination(1, service.MAX_METHODS_PER_ZONE, methods.length));
};

export const createShippingMethod: AppRouteHandler<typeof routes.createShippingMethod> = async (c) => {
  const { id } = c.req.valid('param');
  const method = await service.createShippingMethod(c.var.db, id, c.req.valid('json'));
  return created(c, method, `/api/settings/shipping-zones/${id}/methods/${method.id}`, 'Shipping method created');
};

export const getShippingMethod: AppRouteHandler<typeof routes.getShippingMethod> = async (c) => {
  const { id, methodId } = c.req.valid('param');
  return ok(c, await service.getShippingMethod(c.var.db, id, methodId));
};

export const updateShippingMethod: AppRouteHandler<typeof routes.updateShippingMethod> = async (c) => {
  const { id, methodId } = c.req.valid('param');
  return ok(c, await service.updateShippingMethod(c.var.db, id, methodId, c.req.valid('json')), 'Shipping method updated');
};

export const deleteShippingMethod: AppRouteHandler<typeof routes.deleteShippingMethod> = async (c) => {
  const { id, methodId } = c.req.valid('param');
  await service.deleteShippingMethod(c.var.db, id, methodId);
  return noContent(c);
};
