import { created, list, noContent, ok, pagination } from '../../lib/envelope';
import { ApiError } from '../../lib/errors';
import type { AppRouteHandler } from '../../lib/openapi';
import { project } from '../../lib/query';
import { hasPermission } from '../../lib/access';
import { tokenForUser } from '../../lib/jwt';
import { customerTarget } from './customers.access';
import type * as routes from './customers.routes';
import * as service from './customers.service';

export const listCustomers: AppRouteHandler<typeof routes.listCustomers> = async (c) => {
  const query = c.req.valid('query');
  const { items, total } = await service.listCustomers(c.var.db, query);
  return list(
    c,
    items.map((item) => project(item, query.fields)),
    pagination(query.page, query.limit, total),
  );
};

export const createCustomer: AppRouteHandler<typeof routes.createCustomer> = async (c) => {
  const customer = await service.createCustomer(c.var.db, c.req.valid('json'));
  return created(c, customer, `/api/customers/${customer.id}`, 'Customer created');
};

export const getCustomer: AppRouteHandler<typeof routes.getCustomer> = async (c) => {
  const target = customerTarget(c.var.principal, c.req.valid('param').id, 'read');
  const { fields } = c.req.valid('query');
  return ok(c, project(await service.getCustomer(c.var.db, target.id), fields));
};

export const updateCustomer: AppRouteHandler<typeof routes.updateCustomer> = async (c) => {
  const target = customerTarget(c.var.principal, c.req.valid('param').id, 'write');
  const patch = c.req.valid('json');
  // A customer could otherwise re-enable an account staff disabled.
  if (patch.status !== undefined && !hasPermission(c.var.principal, 'customers:write')) {
    throw ApiError.forbidden('A customer cannot change its own status');
  }
  const { row, emailChanged } = await service.updateCustomer(c.var.db, target, patch);
  const customer = service.toCustomer(row);
  // The caller's own token died with the change: it gets the one that replaces it.
  if (emailChanged && target.self) return ok(c, { ...customer, session: await tokenForUser(c.env, row) }, 'Email changed; use the new token');
  return ok(c, customer, 'Customer updated');
};

export const deleteCustomer: AppRouteHandler<typeof routes.deleteCustomer> = async (c) => {
  const target = customerTarget(c.var.principal, c.req.valid('param').id, 'delete');
  await service.deleteCustomer(c.var.db, target.id);
  return noContent(c);
};
