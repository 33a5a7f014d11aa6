import { hasPermission, vendorScope } from '../../lib/access';
import { created, list, noContent, ok, pagination } from '../../lib/envelope';
import { ApiError } from '../../lib/errors';
import type { AppRouteHandler } from '../../lib/openapi';
import { project } from '../../lib/query';
import type * as routes from './vendors.routes';
import * as service from './vendors.service';

export const listVendors: AppRouteHandler<typeof routes.listVendors> = async (c) => {
  if (vendorScope(c.var.principal) !== null) throw ApiError.forbidden('A vendor user reads only its own vendor, at /api/vendors/{id}');
  const query = c.req.valid('query');
  const { items, total } = await service.listVendors(c.var.db, query);
  return list(
    c,
    items.map((v) => project(v, query.fields)),
    pagination(query.page, query.limit, total),
  );
};

/** Staff read any vendor; a vendor user reads its own, and any other is 404 so ids cannot be probed. */
export const getVendor: AppRouteHandler<typeof routes.getVendor> = async (c) => {
  const { id } = c.req.valid('param');
  const { fields } = c.req.valid('query');
  const principal = c.var.principal;
  const scope = vendorScope(principal);
  if (scope === null && !hasPermission(principal, 'vendors:read')) throw ApiError.forbidden("This credential lacks the 'vendors:read' permission");
  const vendor = await service.getVendor(c.var.db, id);
  if (scope !== null && vendor.id !== scope) throw ApiError.notFound('Vendor', id);
  return ok(c, project(vendor, fields));
};

export const createVendor: AppRouteHandler<typeof routes.createVendor> = async (c) => {
  const vendor = await service.createVendor(c.var.db, c.req.valid('json'));
  return created(c, vendor, `/api/vendors/${vendor.id}`, 'Vendor created');
};

export const updateVendor: AppRouteHandler<typeof routes.updateVendor> = async (c) => {
  return ok(c, await service.updateVendor(c.var.db, c.req.valid('param').id, c.req.valid('json')), 'Vendor updated');
};

export const deleteVendor: AppRouteHandler<typeof routes.deleteVendor> = async (c) => {
  await service.deleteVendor(c.var.db, c.req.valid('param').id);
  return noContent(c);
};
