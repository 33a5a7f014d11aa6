import { access } from '../../lib/route-access';
import { z } from '@hono/zod-openapi';
import { apiRoute, errorResponses, IdParams, jsonBody, listResponse, operation, successResponse, writeErrors } from '../../lib/openapi';
import { listQuerySchema, readQuerySchema } from '../../lib/query';
import { IdempotencyHeaders } from '../../middleware/idempotency';
import { orderPaymentListQuery, paymentListQuery, refundListQuery } from './payments.query';
import { CreatePaymentBody, CreateRefundBody, PaymentAttemptSchema, PaymentSchema, RefundSchema } from './payments.schemas';
import { OrderParams } from '../orders/schemas';

const tags = ['Payments'];
const reach =
  'staff with `payments:read` or `payments:write` see every payment; a signed-in customer sees the payments of its own orders only ' +
  "(another's is 404); vendor users and keys (a payment is the whole order's money) and API keys without the permission get 403.";
const PaymentParams = z.object({ id: IdParams.shape.id.openapi({ param: { name: 'id', in: 'path' }, example: 'pay_01JD0000000000000000000000' }) });
const idempotency = 'Accepts `Idempotency-Key`: a repeat with the same key and body within 24 hours returns the first response without charging again.';

export const createPayment = apiRoute({
  ...operation('orders.payments', 'create', 'createOrderPayment'),
  method: 'post',
  path: '/orders/{id}/payments',
  tags,
  summary: 'Pay (part of) an order',
  description:
    "`manual` needs `payments:write`: it records money as taken. `stripe` may also be started by a signed-in customer on its own order (another's is 404): " +
    "it creates a Stripe PaymentIntent for the amount and answers 201 with the payment `pending` and its `clientSecret` for Stripe.js; Stripe's webhook " +
    '(`POST /api/payments/stripe/webhook`) then completes or fails it. While a `stripe` payment is open on the order, asking again returns it (with its ' +
    '`clientSecret`) rather than starting another. `amount` defaults to what is still owed (total - amountPaid - pending payments). More than is owed, nothing owed, ' +
    "or a cancelled or refunded order is 409 CONFLICT. A completed charge adds to the order's `amountPaid`, emits `payment.completed` and, once the order is " +
    'paid in full while `pending`, moves it to `processing` (emitting `order.updated`). A charge the provider declines is still recorded: 201 with the payment in ' +
    'status `failed` and its `failureReason` (like a declined transaction in Shopify), and `payment.failed`; check `status`. A provider that does not answer is ' +
    '502 PROVIDER_ERROR: the payment stays `pending` and is settled by a retry with the same `Idempotency-Key` (which never charges twice) or by the store within minutes. ' +
    idempotency,
  policy: {
    access: access.credential("`payments:write` for any method; a signed-in customer may start `stripe` on its own order (another's is 404); vendors are refused (403)."),
    idempotency: { scope: [] },
  },
  request: { params: OrderParams, headers: IdempotencyHeaders, body: jsonBody(CreatePaymentBody, 'The payment.') },
  responses: { 201: successResponse(PaymentAttemptSchema, 'The payment: `completed`, `failed` or `pending`.'), ...errorResponses(...writeErrors, 404, 409, 502) },
});

export const listOrderPayments = apiRoute({
  ...operation('orders.payments', 'list', 'listOrderPayments'),
  method: 'get',
  path: '/orders/{id}/payments',
  tags,
  summary: "List an order's payments",
  policy: { access: access.credential(reach) },
  request: { params: OrderParams, query: listQuerySchema(orderPaymentListQuery) },
  responses: { 200: listResponse(PaymentSchema, 'A page of payments.'), ...errorResponses(400, 401, 403, 404) },
});

export const listPayments = apiRoute({
  ...operation('payments', 'list', 'listPayments'),
  method: 'get',
  path: '/payments',
  tags,
  summary: 'List payments',
  policy: { access: access.credential(reach) },
  request: { query: listQuerySchema(paymentListQuery) },
  responses: { 200: listResponse(PaymentSchema, 'A page of payments.'), ...errorResponses(400, 401, 403) },
});

export const getPayment = apiRoute({
  ...operation('payments', 'get', 'getPayment'),
  method: 'get',
  path: '/payments/{id}',
  tags,
  summary: 'Get a payment',
  policy: { access: access.credential(reach) },
  request: { params: PaymentParams, query: readQuerySchema(paymentListQuery.selectable) },
  responses: { 200: successResponse(PaymentSchema, 'The payment.'), ...errorResponses(400, 401, 403, 404) },
});

export const createRefund = apiRoute({
  ...operation('payments.refunds', 'create', 'createPaymentRefund'),
  method: 'post',
  path: '/payments/{id}/refunds',
  tags,
  summary: 'Refund (part of) a payment',
  description:
    '`amount` defaults to what is left to refund on the payment; partial refunds are allowed; more than is left, or a payment that is not ' +
    '`completed` / `partially_refunded`, is 409 CONFLICT. The payment becomes `partially_refunded` or `refunded`; once the order has refunded everything paid ' +
    'and is `processing`, `shipped` or `completed`, it moves to `refunded` (emitting `order.updated`); each refund emits `payment.refunded`. A `stripe` payment is ' +
    "refunded through Stripe's Refunds API. A refund the provider refuses is kept as `failed` and answered 409; one it does not answer is 502 PROVIDER_ERROR and " +
    'stays `pending` until a retry with the same `Idempotency-Key` (never refunding twice) or the store settles it. ' +
    idempotency,
  policy: { access: access.permission('payments:write'), idempotency: { scope: [] } },
  request: { params: PaymentParams, headers: IdempotencyHeaders, body: jsonBody(CreateRefundBody, 'The refund.') },
  responses: { 201: successResponse(RefundSchema, 'The refund.'), ...errorResponses(...writeErrors, 404, 409, 502) },
});

export const listRefunds = apiRoute({
  ...operation('payments.refunds', 'list', 'listPaymentRefunds'),
  method: 'get',
  path: '/payments/{id}/refunds',
  tags,
  summary: "List a payment's refunds",
  description: 'Newest first by default.',
  policy: { access: access.credential(reach) },
  request: { params: PaymentParams, query: listQuerySchema(refundListQuery) },
  responses: { 200: listResponse(RefundSchema, 'A page of refunds.'), ...errorResponses(400, 401, 403, 404) },
});

export const stripeWebhook = apiRoute({
  ...operation('payments.stripe', 'webhook', 'receiveStripeWebhook'),
  // Stripe calls it, not clients: the client libraries leave it out (scripts/clients/model.mjs).
  'x-sdk-exclude': true,
  method: 'post',
  path: '/payments/stripe/webhook',
  tags,
  summary: "Stripe's webhook",
  description:
    'For Stripe, not for clients: register this URL in the Stripe dashboard (or `stripe listen --forward-to`), with its signing secret as STRIPE_WEBHOOK_SECRET. ' +
    'The raw body must verify against `Stripe-Signature` within 5 minutes of its timestamp (400 otherwise, and nothing changes); each event id is handled once ' +
    '(a repeat answers 200 with `duplicate`). `payment_intent.succeeded` completes the payment; `payment_intent.payment_failed` cancels the PaymentIntent and fails ' +
    "the payment with the decline's reason; `payment_intent.canceled` fails it; `charge.refunded` and `refund.*` record refunds (also those made in the Stripe " +
    "dashboard); `charge.dispute.*` record the dispute's status on the payment (`payment.disputed` when one opens). An event naming a payment the store has not " +
    'written yet is 409, which Stripe retries. 404 while Stripe is not set up. Never rate limited.',
  policy: { access: access.none(), counted: false },
  request: {
    body: {
      content: { 'application/json': { schema: z.object({ id: z.string(), type: z.string() }).passthrough().openapi('StripeEvent') } },
      required: true,
      description: 'A Stripe event, as Stripe sends it.',
    },
  },
  responses: {
    200: successResponse(
      z.object({ received: z.literal(true), outcome: z.enum(['handled', 'duplicate', 'ignored']) }).openapi('StripeWebhookReceipt'),
      'The event was handled (or was already, or is not one the store acts on).',
    ),
    ...errorResponses(400, 404, 409, 422),
  },
});
