import { list, created, ok, pagination } from '../../lib/envelope';
import type { AppRouteHandler } from '../../lib/openapi';
import { project } from '../../lib/query';
import { actorRef, type Principal } from '../../lib/access';
import { ALL_ORDERS, cancelReach, readReach } from './orders.access';
import type * as routes from './orders.routes';
import * as service from './orders.service';
import { orderNumberStart } from './place-order';

type WithPrincipal = { var: { principal: Principal } };
const actor = (c: WithPrincipal) => actorRef(c.var.principal);

export const listOrders: AppRouteHandler<typeof routes.listOrders> = async (c) => {
  const query = c.req.valid('query');
  const { items, total } = await service.listOrders(c.var.db, query, readReach(c.var.principal));
  return list(
    c,
    items.map((o) => project(o, query.fields)),
    pagination(query.page, query.limit, total),
  );
};

export const getOrder: AppRouteHandler<typeof routes.getOrder> = async (c) => {
  const { fields } = c.req.valid('query');
  return ok(c, project(await service.getOrder(c.var.db, c.req.valid('param').id, readReach(c.var.principal), fields), fields));
};

export const createOrder: AppRouteHandler<typeof routes.createOrder> = async (c) => {
  const order = await service.createOrder(c.var.db, c.var.principal, c.req.valid('json'), actor(c), orderNumberStart(c.env));
  return created(c, order, `/api/orders/${order.id}`, 'Order placed');
};

export const updateOrder: AppRouteHandler<typeof routes.updateOrder> = async (c) => {
  const { id } = c.req.valid('param');
  await service.updateOrder(c.var.db, id, c.req.valid('json'), actor(c));
  return ok(c, await service.getOrder(c.var.db, id, ALL_ORDERS), 'Order updated');
};

export const cancelOrder: AppRouteHandler<typeof routes.cancelOrder> = async (c) => {
  const { id } = c.req.valid('param');
  const reach = cancelReach(c.var.principal);
  await service.cancelOrder(c.var.db, id, reach, c.req.valid('json').reason, actor(c));
  return ok(c, await service.getOrder(c.var.db, id, reach), 'Order cancelled');
};
