import { created, list, pagination } from '../../lib/envelope';
import type { AppRouteHandler } from '../../lib/openapi';
import { project } from '../../lib/query';
import { actorRef } from '../../lib/access';
import { inventoryReach } from './inventory.access';
import { adjustmentListQuery, inventoryListQuery } from './inventory.query';
import type * as routes from './inventory.routes';
import * as service from './inventory.service';

export const listInventory: AppRouteHandler<typeof routes.listInventory> = async (c) => {
  const query = c.req.valid('query');
  const { items, total } = await service.listInventory(c.var.db, query, inventoryListQuery, inventoryReach(c.var.principal));
  return list(
    c,
    items.map((i) => project(i, query.fields)),
    pagination(query.page, query.limit, total),
  );
};

export const createAdjustment: AppRouteHandler<typeof routes.createAdjustment> = async (c) => {
  const { variantId } = c.req.valid('param');
  const result = await service.adjustStock(c.var.db, variantId, c.req.valid('json'), inventoryReach(c.var.principal), actorRef(c.var.principal));
  return created(c, result, `/api/inventory/${variantId}/adjustments`, 'Stock adjusted');
};

export const listAdjustments: AppRouteHandler<typeof routes.listAdjustments> = async (c) => {
  const query = c.req.valid('query');
  const { items, total } = await service.listAdjustments(c.var.db, c.req.valid('param').variantId, query, adjustmentListQuery, inventoryReach(c.var.principal));
  return list(
    c,
    items.map((a) => project(a, query.fields)),
    pagination(query.page, query.limit, total),
  );
};
