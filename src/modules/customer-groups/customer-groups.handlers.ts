import { crudHandlers } from '../../lib/crud-handlers';
import { list, noContent, ok, pagination } from '../../lib/envelope';
import type { AppRouteHandler } from '../../lib/openapi';
import { project } from '../../lib/query';
import { listCustomers } from '../customers';
import type * as routes from './customer-groups.routes';
import * as service from './customer-groups.service';

export const customerGroupHandlers = crudHandlers(
  {
    list: (db, query) => service.listCustomerGroups(db, query),
    get: (db, id) => service.getCustomerGroup(db, id),
    create: service.createCustomerGroup,
    update: service.updateCustomerGroup,
    remove: service.deleteCustomerGroup,
  },
  { path: '/customer-groups', noun: 'customer group' },
);

export const listMembers: AppRouteHandler<typeof routes.listMembers> = async (c) => {
  const { id } = c.req.valid('param');
  const query = c.req.valid('query');
  await service.getCustomerGroup(c.var.db, id);
  const { items, total } = await listCustomers(c.var.db, { ...query, filters: { ...query.filters, group: id } });
  return list(
    c,
    items.map((item) => project(item, query.fields)),
    pagination(query.page, query.limit, total),
  );
};

export const addMembers: AppRouteHandler<typeof routes.addMembers> = async (c) => {
  return ok(c, await service.addMembers(c.var.db, c.req.valid('param').id, c.req.valid('json').customerIds), 'Customers added');
};

export const removeMember: AppRouteHandler<typeof routes.removeMember> = async (c) => {
  const { id, customerId } = c.req.valid('param');
  await service.removeMember(c.var.db, id, customerId);
  return noContent(c);
};
