import type { Context } from 'hono';
import { list, ok, pagination } from '../../lib/envelope';
import type { AppRouteHandler } from '../../lib/openapi';
import { project } from '../../lib/query';
import type * as routes from './deliveries.routes';
import * as service from './deliveries.service';

/** 202: the delivery is queued; its outcome shows in the deliveries later. */
// biome-ignore lint/suspicious/noExplicitAny: the route declares the 202 body; c.json's inference cannot match it.
const accepted = (c: Context, data: unknown, message: string) => c.json({ success: true, data, message } as any, 202);

export const listDeliveries: AppRouteHandler<typeof routes.listDeliveries> = async (c) => {
  const query = c.req.valid('query');
  const { items, total } = await service.listDeliveries(c.var.db, c.req.valid('param').id, query);
  return list(
    c,
    items.map((item) => project(item, query.fields)),
    pagination(query.page, query.limit, total),
  );
};

export const getDelivery: AppRouteHandler<typeof routes.getDelivery> = async (c) => {
  const { id, deliveryId } = c.req.valid('param');
  return ok(c, project(await service.getDelivery(c.var.db, id, deliveryId), c.req.valid('query').fields));
};

export const redeliver: AppRouteHandler<typeof routes.redeliver> = async (c) => {
  const { id, deliveryId } = c.req.valid('param');
  return accepted(c, await service.redeliver(c.var.db, c.env, id, deliveryId), 'Delivery queued again');
};

export const testWebhook: AppRouteHandler<typeof routes.testWebhook> = async (c) => {
  return accepted(c, await service.sendTestPing(c.var.db, c.env, c.req.valid('param').id), 'Test ping queued');
};
