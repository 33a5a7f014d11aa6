import { created, list, ok, pagination } from '../../lib/envelope';
import type { AppRouteHandler } from '../../lib/openapi';
import { project } from '../../lib/query';
import { returnReach } from './returns.access';
import { returnListQuery } from './returns.query';
import type * as routes from './returns.routes';
import * as service from './returns.service';
import { exchangeReturn as exchange } from './exchanges';
import { orderNumberStart } from '../orders';

export const createReturn: AppRouteHandler<typeof routes.createReturn> = async (c) => {
  const found = await service.createReturn(c.var.db, c.req.valid('param').id, c.req.valid('json'), c.var.principal);
  return created(c, found, `/api/returns/${found.id}`, 'Return requested');
};

export const listReturns: AppRouteHandler<typeof routes.listReturns> = async (c) => {
  const query = c.req.valid('query');
  const { items, total } = await service.listReturns(c.var.db, returnReach(c.var.principal), query, returnListQuery);
  return list(
    c,
    items.map((r) => project(r, query.fields)),
    pagination(query.page, query.limit, total),
  );
};

export const getReturn: AppRouteHandler<typeof routes.getReturn> = async (c) => {
  const found = await service.getReturn(c.var.db, c.req.valid('param').id, returnReach(c.var.principal));
  return ok(c, project(found, c.req.valid('query').fields));
};

export const updateReturn: AppRouteHandler<typeof routes.updateReturn> = async (c) => {
  const updated = await service.updateReturn(c.var.db, c.req.valid('param').id, c.req.valid('json'), c.var.principal);
  return ok(c, updated, 'Return updated');
};

export const exchangeReturn: AppRouteHandler<typeof routes.exchangeReturn> = async (c) => {
  const made = await exchange(c.var.db, c.env, c.req.valid('param').id, c.req.valid('json'), c.var.principal, { numberStart: orderNumberStart(c.env) });
  return created(c, made, `/api/orders/${made.order.id}`, 'Return exchanged');
};
