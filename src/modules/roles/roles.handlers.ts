import { created, list, noContent, ok, pagination } from '../../lib/envelope';
import type { AppRouteHandler } from '../../lib/openapi';
import { project } from '../../lib/query';
import type * as routes from './roles.routes';
import * as service from './roles.service';

export const listRoles: AppRouteHandler<typeof routes.listRoles> = async (c) => {
  const query = c.req.valid('query');
  const { items, total } = await service.listRoles(c.var.db, query);
  return list(
    c,
    items.map((r) => project(r, query.fields)),
    pagination(query.page, query.limit, total),
  );
};

export const getRole: AppRouteHandler<typeof routes.getRole> = async (c) => {
  const { fields } = c.req.valid('query');
  return ok(c, project(await service.getRole(c.var.db, c.req.valid('param').id), fields));
};

export const createRole: AppRouteHandler<typeof routes.createRole> = async (c) => {
  const role = await service.createRole(c.var.db, c.var.principal, c.req.valid('json'));
  return created(c, role, `/api/roles/${role.id}`, 'Role created');
};

export const updateRole: AppRouteHandler<typeof routes.updateRole> = async (c) => {
  return ok(c, await service.updateRole(c.var.db, c.var.principal, c.req.valid('param').id, c.req.valid('json')), 'Role updated');
};

export const deleteRole: AppRouteHandler<typeof routes.deleteRole> = async (c) => {
  await service.deleteRole(c.var.db, c.var.principal, c.req.valid('param').id);
  return noContent(c);
};
