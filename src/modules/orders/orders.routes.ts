import { access } from '../../lib/route-access';
import { IdempotencyHeaders } from '../../middleware/idempotency';
import { apiRoute, crudOperations, errorResponses, jsonBody, listResponse, operation, successResponse, writeErrors } from '../../lib/openapi';
import { listQuerySchema, readQuerySchema } from '../../lib/query';
import { orderDetailFields, orderListQuery } from './orders.query';
import { CancelOrderBody, CreateOrderBody, OrderDetailSchema, OrderSchema, UpdateOrderBody } from './orders.schemas';
import { OrderParams } from './orders.schemas';

const tags = ['Orders'];
const names = crudOperations('orders', 'Order', 'Orders');

const reach =
  'staff with `orders:read` (or `orders:write`) see every order. A customer sees only its own orders; a vendor user (or a key of the vendor role) ' +
  'only the orders that contain a line of its vendor, and in them only its own lines, with amounts computed from those lines alone: ' +
  'subtotal, discount, tax and total are sums of its lines, shipping is 0, and amountPaid, amountRefunded and amountDue are null. ' +
  'Any other order answers 404, as an unknown one does.';

export const listOrders = apiRoute({
  ...names.list,
  method: 'get',
  path: '/orders',
  tags,
  summary: 'List orders',
  description: "`total` sorts amounts in each order's own currency (a vendor's: the total of its lines).",
  policy: { access: access.credential(reach) },
  request: { query: listQuerySchema(orderListQuery) },
  responses: { 200: listResponse(OrderSchema, 'A page of orders.'), ...errorResponses(400, 401, 403) },
});

export const createOrder = apiRoute({
  ...names.create,
  method: 'post',
  path: '/orders',
  tags,
  summary: 'Place an order',
  description:
    'Prices the lines as the store sells them now (currency, coupon, tax of the shipping address, shipping) and reserves the stock ' +
    'atomically: when the stock runs short the order is 409 and nothing is kept. The order is written only at prices and settings that ' +
    'are still current when it is written (a change in between reprices it; 409 only if they keep changing). Emits `order.placed`. A signed-in customer orders for ' +
    'itself; staff with `orders:write` order for `customerId` or a guest `email` (one is required). Vendor users cannot place orders (403). ' +
    'An order with money to pay that is still unpaid after `ORDER_PAYMENT_TTL_MINUTES` (60 by default) is cancelled by the store as the ' +
    'cancel action does (its stock and coupon use given back; actor `system`, reason `payment_expired` in its history and its events). ' +
    'Takes `Idempotency-Key`.',
  policy: { access: access.credential('a signed-in customer for itself, staff with `orders:write` for anyone; vendors are refused (403).'), idempotency: { scope: [] } },
  request: { headers: IdempotencyHeaders, body: jsonBody(CreateOrderBody, 'The lines and who the order is for.') },
  responses: { 201: successResponse(OrderDetailSchema, 'The placed order.'), ...errorResponses(400, ...writeErrors, 409) },
});

export const getOrder = apiRoute({
  ...names.get,
  method: 'get',
  path: '/orders/{id}',
  tags,
  summary: 'Get an order',
  description: 'Shows the status history too.',
  policy: { access: access.credential(reach) },
  request: { params: OrderParams, query: readQuerySchema(orderDetailFields) },
  responses: { 200: successResponse(OrderDetailSchema, 'The order.'), ...errorResponses(400, 401, 403, 404) },
});

export const updateOrder = apiRoute({
  ...names.update,
  method: 'patch',
  path: '/orders/{id}',
  tags,
  summary: 'Change an order',
  description:
    '`status` moves the order through its state machine: pending -> processing -> shipped -> completed; pending or ' +
    'processing -> cancelled; processing, shipped or completed -> refunded. Any other move (staying put included) is 409 naming the ' +
    'allowed ones. Each move emits `order.updated`; `cancelled` does what the cancel action does. `notes` alone emits no event.',
  policy: { access: access.permission('orders:write') },
  request: { params: OrderParams, body: jsonBody(UpdateOrderBody, 'Fields to change.') },
  responses: { 200: successResponse(OrderDetailSchema, 'The changed order.'), ...errorResponses(...writeErrors, 404, 409) },
});

export const cancelOrder = apiRoute({
  ...operation('orders', 'cancel', 'cancelOrder'),
  method: 'post',
  path: '/orders/{id}/cancel',
  tags,
  summary: 'Cancel an order',
  description:
    'In one step: the order becomes `cancelled` (emits `order.updated` and `order.cancelled`), the stock of its unshipped units is ' +
    'returned, and its coupon use is given back. Staff with `orders:write` cancel pending or processing orders; a customer cancels its own ' +
    'order while it is pending (409 after that). An order with money on it (paid more than refunded) is 409: refund it first. Cancelling a ' +
    'cancelled order is 409. The `reason` is kept as the history note and sent as `reason` in both events. Takes `Idempotency-Key`.',
  policy: { access: access.credential("staff with `orders:write` any order, a customer its own (another's is 404); vendors are refused (403)."), idempotency: { scope: [] } },
  request: {
    params: OrderParams,
    headers: IdempotencyHeaders,
    body: { content: { 'application/json': { schema: CancelOrderBody } }, description: 'Optional: why.', required: false },
  },
  responses: { 200: successResponse(OrderDetailSchema, 'The cancelled order.'), ...errorResponses(400, ...writeErrors, 404, 409) },
});
