import { hasPermission, vendorScope } from '../../lib/access';
import { created, list, noContent, ok, pagination } from '../../lib/envelope';
import { ApiError } from '../../lib/errors';
import type { AppRouteHandler } from '../../lib/openapi';
import { project } from '../../lib/query';
import type * as routes from './users.routes';
import * as service from './users.service';

export const listUsers: AppRouteHandler<typeof routes.listUsers> = async (c) => {
  if (vendorScope(c.var.principal) !== null) throw ApiError.forbidden('A vendor user reads only its own record');
  const query = c.req.valid('query');
  const { items, total } = await service.listStaffUsers(c.var.db, query);
  return list(
    c,
    items.map((u) => project(u, query.fields)),
    pagination(query.page, query.limit, total),
  );
};

/** A user reads itself; staff with users:read read anyone; to a vendor user, everyone else is 404. */
export const getUser: AppRouteHandler<typeof routes.getUser> = async (c) => {
  const { id } = c.req.valid('param');
  const { fields } = c.req.valid('query');
  const principal = c.var.principal;
  const self = principal.kind === 'user' && principal.id === id;
  if (!self && vendorScope(principal) !== null) throw ApiError.notFound('User', id);
  if (!self && !hasPermission(principal, 'users:read')) throw ApiError.forbidden("This credential lacks the 'users:read' permission");
  return ok(c, project(service.toUser(await service.getStaffUserRow(c.var.db, id)), fields));
};

export const createUser: AppRouteHandler<typeof routes.createUser> = async (c) => {
  const user = service.toUser(await service.createStaffUser(c.var.db, c.var.principal, c.req.valid('json')));
  return created(c, user, `/api/users/${user.id}`, 'User created');
};

export const updateUser: AppRouteHandler<typeof routes.updateUser> = async (c) => {
  const row = await service.updateStaffUser(c.var.db, c.var.principal, c.req.valid('param').id, c.req.valid('json'));
  return ok(c, service.toUser(row), 'User updated');
};

export const deleteUser: AppRouteHandler<typeof routes.deleteUser> = async (c) => {
  await service.deleteStaffUser(c.var.db, c.var.principal, c.req.valid('param').id);
  return noContent(c);
};
