import { list, ok, pagination } from '../../lib/envelope';
import type { AppRouteHandler } from '../../lib/openapi';
import { project } from '../../lib/query';
import { eventListQuery } from './events.query';
import type * as routes from './events.routes';
import * as service from './events.service';

export const listEvents: AppRouteHandler<typeof routes.listEvents> = async (c) => {
  const query = c.req.valid('query');
  const { items, total } = await service.listEvents(c.var.db, c.var.principal, query, eventListQuery);
  return list(
    c,
    items.map((event) => project(event, query.fields)),
    pagination(query.page, query.limit, total),
  );
};

export const getEvent: AppRouteHandler<typeof routes.getEvent> = async (c) =>
  ok(c, project(await service.getEvent(c.var.db, c.var.principal, c.req.valid('param').id), c.req.valid('query').fields));
