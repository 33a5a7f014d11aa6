import { list, ok, pagination } from '../../lib/envelope';
import type { AppRouteHandler } from '../../lib/openapi';
import { project } from '../../lib/query';
import type * as routes from './audit-log.routes';
import * as service from './audit-log.service';

export const listAuditLog: AppRouteHandler<typeof routes.listAuditLog> = async (c) => {
  const query = c.req.valid('query');
  const { items, total } = await service.listAuditLog(c.var.db, query);
  return list(
    c,
    items.map((item) => project(item, query.fields)),
    pagination(query.page, query.limit, total),
  );
};

export const getAuditEntry: AppRouteHandler<typeof routes.getAuditEntry> = async (c) => {
  return ok(c, project(await service.getAuditEntry(c.var.db, c.req.valid('param').id), c.req.valid('query').fields));
};
