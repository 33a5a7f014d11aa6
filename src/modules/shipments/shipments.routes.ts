import { access } from '../../lib/route-access';
import { z } from '@hono/zod-openapi';
import { apiRoute, errorResponses, IdParams, jsonBody, listResponse, operation, successResponse, writeErrors } from '../../lib/openapi';
import { listQuerySchema, readQuerySchema } from '../../lib/query';
import { IdempotencyHeaders } from '../../middleware/idempotency';
import { allShipmentsListQuery, shipmentListQuery } from './shipments.query';
import { CreateShipmentBody, ShipmentSchema, UpdateShipmentBody } from './shipments.schemas';
import { OrderParams } from '../orders/schemas';

const tags = ['Shipments'];
const reach =
  'staff with `shipments:*` or `orders:*` (read or write) see every shipment; a vendor user (or a key of the vendor role) sees only the shipments ' +
  "that carry one of its vendor's lines, and in them only those lines; a signed-in customer those of its own orders. Another's is 404.";
const writers = 'Needs `shipments:write` or `orders:write`.';
const ShipmentParams = z.object({ id: IdParams.shape.id.openapi({ param: { name: 'id', in: 'path' }, example: 'ship_01JD0000000000000000000000' }) });

export const createShipment = apiRoute({
  ...operation('orders.shipments', 'create', 'createOrderShipment'),
  method: 'post',
  path: '/orders/{id}/shipments',
  tags,
  summary: 'Ship (part of) an order',
  description:
    `${writers} Only for orders in \`processing\` (or \`shipped\`, for a later partial shipment); 409 otherwise. \`lines\` default to every unit not yet in a shipment; ` +
    'more units than a line has left is 409, a line of another order 422. Created `shipped`, it counts the units as shipped at once, and the order moves to ' +
    '`shipped` (emitting `order.updated`) once every unit of every line has shipped. Accepts `Idempotency-Key`.',
  policy: { access: access.permission('shipments:write', { also: ['orders:write'] }), idempotency: { scope: [] } },
  request: { params: OrderParams, headers: IdempotencyHeaders, body: jsonBody(CreateShipmentBody, 'The shipment.') },
  responses: { 201: successResponse(ShipmentSchema, 'The shipment.'), ...errorResponses(...writeErrors, 404, 409) },
});

export const listOrderShipments = apiRoute({
  ...operation('orders.shipments', 'list', 'listOrderShipments'),
  method: 'get',
  path: '/orders/{id}/shipments',
  tags,
  summary: "List an order's shipments",
  description: 'Oldest first by default.',
  policy: { access: access.credential(reach) },
  request: { params: OrderParams, query: listQuerySchema(shipmentListQuery) },
  responses: { 200: listResponse(ShipmentSchema, 'A page of shipments.'), ...errorResponses(400, 401, 403, 404) },
});

export const listShipments = apiRoute({
  ...operation('shipments', 'list', 'listShipments'),
  method: 'get',
  path: '/shipments',
  tags,
  summary: 'List shipments',
  description:
    'Every shipment the caller reaches, newest first: a warehouse filters `status=pending` for what is waiting to ship, `shipped_after` for what went out. ' +
    'Without a shipments or orders permission an API key is 403.',
  policy: { access: access.credential(reach) },
  request: { query: listQuerySchema(allShipmentsListQuery) },
  responses: { 200: listResponse(ShipmentSchema, 'A page of shipments.'), ...errorResponses(400, 401, 403) },
});

export const getShipment = apiRoute({
  ...operation('shipments', 'get', 'getShipment'),
  method: 'get',
  path: '/shipments/{id}',
  tags,
  summary: 'Get a shipment',
  policy: { access: access.credential(reach) },
  request: { params: ShipmentParams, query: readQuerySchema(shipmentListQuery.selectable) },
  responses: { 200: successResponse(ShipmentSchema, 'The shipment.'), ...errorResponses(400, 401, 403, 404) },
});

export const updateShipment = apiRoute({
  ...operation('shipments', 'update', 'updateShipment'),
  method: 'patch',
  path: '/shipments/{id}',
  tags,
  summary: 'Update a shipment: tracking, or its next status',
  description:
    `${writers} \`status\` moves one step: \`pending\` -> \`shipped\` (the units count as shipped; the order moves to \`shipped\` once everything has) -> ` +
    '`delivered` (the units count as delivered; a `shipped` order moves to `completed` once everything has). Any other move, the same status again included, is 409.',
  policy: { access: access.permission('shipments:write', { also: ['orders:write'] }) },
  request: { params: ShipmentParams, body: jsonBody(UpdateShipmentBody, 'Fields to change.') },
  responses: { 200: successResponse(ShipmentSchema, 'The updated shipment.'), ...errorResponses(...writeErrors, 404, 409) },
});
