import { eq } from 'drizzle-orm';
import { shipments } from '../../db/schema';
import { created, list, ok, pagination } from '../../lib/envelope';
import type { AppRouteHandler } from '../../lib/openapi';
import { project } from '../../lib/query';
import { actorRef } from '../../lib/access';
import { orderCondition } from '../orders';
import { shipmentReach } from './shipments.access';
import { allShipmentsListQuery, shipmentListQuery } from './shipments.query';
import type * as routes from './shipments.routes';
import * as service from './shipments.service';

const actor = (c: Parameters<AppRouteHandler<typeof routes.createShipment>>[0]) => actorRef(c.var.principal);

export const createShipment: AppRouteHandler<typeof routes.createShipment> = async (c) => {
  const order = await service.findOrder(c.var.db, c.req.valid('param').id, undefined);
  const shipment = await service.createShipment(c.var.db, order, c.req.valid('json'), actor(c));
  return created(c, shipment, `/api/shipments/${shipment.id}`, 'Shipment created');
};

export const listOrderShipments: AppRouteHandler<typeof routes.listOrderShipments> = async (c) => {
  const reach = shipmentReach(c.var.principal);
  const order = await service.findOrder(c.var.db, c.req.valid('param').id, orderCondition(reach));
  const query = c.req.valid('query');
  const { items, total } = await service.listShipments(c.var.db, reach, [eq(shipments.orderId, order.id)], query, shipmentListQuery);
  return list(
    c,
    items.map((s) => project(s, query.fields)),
    pagination(query.page, query.limit, total),
  );
};

export const listShipments: AppRouteHandler<typeof routes.listShipments> = async (c) => {
  const query = c.req.valid('query');
  const { items, total } = await service.listShipments(c.var.db, shipmentReach(c.var.principal), [], query, allShipmentsListQuery);
  return list(
    c,
    items.map((s) => project(s, query.fields)),
    pagination(query.page, query.limit, total),
  );
};

export const getShipment: AppRouteHandler<typeof routes.getShipment> = async (c) => {
  const shipment = await service.getShipment(c.var.db, c.req.valid('param').id, shipmentReach(c.var.principal));
  return ok(c, project(shipment, c.req.valid('query').fields));
};

export const updateShipment: AppRouteHandler<typeof routes.updateShipment> = async (c) => {
  const shipment = await service.updateShipment(c.var.db, c.req.valid('param').id, c.req.valid('json'), actorRef(c.var.principal));
  return ok(c, shipment, 'Shipment updated');
};
