import { access } from '../../lib/route-access';
import { z } from '@hono/zod-openapi';
import { apiRoute, errorResponses, IdParams, jsonBody, listResponse, operation, successResponse, writeErrors } from '../../lib/openapi';
import { listQuerySchema, readQuerySchema } from '../../lib/query';
import { IdempotencyHeaders } from '../../middleware/idempotency';
import { OrderParams } from '../orders/schemas';
import { returnListQuery } from './returns.query';
import { ExchangeBody, ExchangeSchema } from './exchanges.schemas';
import { CreateReturnBody, ReturnSchema, UpdateReturnBody } from './returns.schemas';

const tags = ['Returns'];
const reach = "staff with `returns:read` or `returns:write` see every return; a signed-in customer its own (another's is 404); a vendor's credential is refused (403).";
const ReturnParams = z.object({ id: IdParams.shape.id.openapi({ param: { name: 'id', in: 'path' }, example: 'ret_01JD0000000000000000000000' }) });

export const createReturn = apiRoute({
  ...operation('orders.returns', 'create', 'createOrderReturn'),
  method: 'post',
  path: '/orders/{id}/returns',
  tags,
  summary: "Request a return of some of an order's lines",
  description:
    "The order's signed-in customer, while the store's return window is open: `returnWindowDays` (`/api/settings`, default 30) after the order's " +
    'last delivery, or, before any delivery, its last shipping, or, before any, its placement; after that 409. Staff with `returns:write` any time; ' +
    'vendor users never (403). The order must be `processing`, `shipped` or `completed` (409 otherwise). A line not of the order (or named twice) is 422; ' +
    'more units than a line has left to return is 409, and the database refuses it too when two requests race. Emits `return.requested`. Accepts `Idempotency-Key`.',
  policy: {
    access: access.credential("the order's signed-in customer, or staff with `returns:write`; another's order is 404, a vendor's credential 403."),
    idempotency: { scope: [] },
  },
  request: { params: OrderParams, headers: IdempotencyHeaders, body: jsonBody(CreateReturnBody, 'The lines coming back.') },
  responses: { 201: successResponse(ReturnSchema, 'The return, `requested`.'), ...errorResponses(...writeErrors, 404, 409) },
});

export const listReturns = apiRoute({
  ...operation('returns', 'list', 'listReturns'),
  method: 'get',
  path: '/returns',
  tags,
  summary: 'List returns',
  description: 'Newest first; `status=requested` is what waits on staff.',
  policy: { access: access.credential(reach) },
  request: { query: listQuerySchema(returnListQuery) },
  responses: { 200: listResponse(ReturnSchema, 'A page of returns.'), ...errorResponses(400, 401, 403) },
});

export const getReturn = apiRoute({
  ...operation('returns', 'get', 'getReturn'),
  method: 'get',
  path: '/returns/{id}',
  tags,
  summary: 'Get a return',
  policy: { access: access.credential(reach) },
  request: { params: ReturnParams, query: readQuerySchema(returnListQuery.selectable) },
  responses: { 200: successResponse(ReturnSchema, 'The return.'), ...errorResponses(400, 401, 403, 404) },
});

export const updateReturn = apiRoute({
  ...operation('returns', 'update', 'updateReturn'),
  method: 'patch',
  path: '/returns/{id}',
  tags,
  summary: 'Move a return on: approve, reject, receive (restocking), refund or cancel',
  description:
    'Staff with `returns:write`: `requested` -> `approved` -> `received` -> `refunded`, or `rejected` / `cancelled` from `requested` or `approved` ' +
    '(their units can be returned again). `received` takes `restock`, the units of each line put back in stock (an inventory adjustment of reason `return` ' +
    'naming the return, in the same write); lines not named are not restocked. `refunded` is normally set by the refund that settles the return. ' +
    "The order's customer may only cancel its own while `requested` (403 for any other move). Any other move, the same status again or a move " +
    'another request made first included, is 409. Emits `return.approved`, `return.rejected` or `return.received` for those moves.',
  policy: { access: access.credential("staff with `returns:write`, or the order's customer to cancel its own request; a vendor's credential is refused (403).") },
  request: { params: ReturnParams, body: jsonBody(UpdateReturnBody, 'The move.') },
  responses: { 200: successResponse(ReturnSchema, 'The updated return.'), ...errorResponses(...writeErrors, 404, 409) },
});

export const exchangeReturn = apiRoute({
  ...operation('returns', 'exchange', 'exchangeReturn'),
  method: 'post',
  path: '/returns/{id}/exchange',
  tags,
  summary: 'Exchange a received return for other variants',
  description:
    'Once the return is `received` (409 before, or when it was refunded or exchanged). In one write: a new order for ' +
    "the customer, at today's prices in the first order's currency, to its address, shipping free; the returned units' value (what was paid for them, as a refund by " +
    "line works it out) refunded from the first order's payment with destination `exchange` and paid into the new order as an `exchange` payment, up to its total; " +
    "the return `refunded`, naming the new order. The customer pays `amountDue` as for any order; a value beyond the new order's total is refunded to `balanceTo`. " +
    'Stock for the new lines is taken as an order takes it (409 when short). Two exchanges of one return at once: one writes, the other is 409 and leaves nothing. ' +
    'Emits `order.placed`, `refund.created`, `payment.refunded` and (with a value) `payment.completed`. Accepts `Idempotency-Key`.',
  policy: { access: access.permission('returns:write'), idempotency: { scope: [] } },
  request: { params: ReturnParams, headers: IdempotencyHeaders, body: jsonBody(ExchangeBody, 'What the customer gets instead.') },
  responses: { 201: successResponse(ExchangeSchema, 'The exchange: the return, the new order and the money.'), ...errorResponses(...writeErrors, 404, 409) },
});
