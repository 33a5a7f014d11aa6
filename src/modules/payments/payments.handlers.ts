import { eq } from 'drizzle-orm';
import { orders, payments } from '../../db/schema';
import { created, list, ok, pagination } from '../../lib/envelope';
import type { AppRouteHandler } from '../../lib/openapi';
import { ApiError } from '../../lib/errors';
import { project } from '../../lib/query';
import { actorRef } from '../../lib/access';
import { payerReach, paymentReach } from './payments.access';
import { orderPaymentListQuery, paymentListQuery, refundListQuery } from './payments.query';
import type * as routes from './payments.routes';
import * as service from './payments.service';
import { missingStripeSettings } from './providers/stripe';
import { reconcilePending } from './reconcile';
import * as refundService from './refunds.service';
import { handleStripeEvent, verifiedEvent } from './stripe-webhook';
import { payWithCode } from './order-gift-card-payment';
import { shopperNetwork } from '../../lib/client-network';

export const createPayment: AppRouteHandler<typeof routes.createPayment> = async (c) => {
  const body = c.req.valid('json');
  const order = await service.findOrder(c.var.db, c.req.valid('param').id, payerReach(c.var.principal, body.provider));
  const { payment, clientSecret } =
    body.provider === 'gift_card'
      ? await payWithCode(c.var.db, c.env, order, body, shopperNetwork(c), actorRef(c.var.principal))
      : await service.createPayment(c.var.db, c.env, order, body, { actor: actorRef(c.var.principal), requestKey: c.var.requestKey });
  const message = payment.status === 'completed' ? 'Payment completed' : payment.status === 'failed' ? `Payment failed: ${payment.failureReason}` : 'Payment pending';
  return created(c, { ...payment, clientSecret }, `/api/payments/${payment.id}`, message);
};

export const listOrderPayments: AppRouteHandler<typeof routes.listOrderPayments> = async (c) => {
  const reach = paymentReach(c.var.principal, orders.id);
  const order = await service.findOrder(c.var.db, c.req.valid('param').id, reach);
  const query = c.req.valid('query');
  const { items, total } = await service.listPayments(c.var.db, query, orderPaymentListQuery, [eq(payments.orderId, order.id)]);
  return list(
    c,
    items.map((p) => project(p, query.fields)),
    pagination(query.page, query.limit, total),
  );
};

export const listPayments: AppRouteHandler<typeof routes.listPayments> = async (c) => {
  const reach = paymentReach(c.var.principal, payments.orderId);
  const query = c.req.valid('query');
  const { items, total } = await service.listPayments(c.var.db, query, paymentListQuery, [reach]);
  return list(
    c,
    items.map((p) => project(p, query.fields)),
    pagination(query.page, query.limit, total),
  );
};

export const getPayment: AppRouteHandler<typeof routes.getPayment> = async (c) => {
  const { payment, digits } = await service.findPayment(c.var.db, c.req.valid('param').id, paymentReach(c.var.principal, payments.orderId));
  return ok(c, project(service.toPayment(payment, digits), c.req.valid('query').fields));
};

export const createRefund: AppRouteHandler<typeof routes.createRefund> = async (c) => {
  const { payment, order } = await service.findPayment(c.var.db, c.req.valid('param').id, undefined);
  const refund = await refundService.createRefund(c.var.db, c.env, payment, order, c.req.valid('json'), { actor: actorRef(c.var.principal), requestKey: c.var.requestKey });
  return created(c, refund, `/api/payments/${payment.id}/refunds`, 'Refund created');
};

export const listRefunds: AppRouteHandler<typeof routes.listRefunds> = async (c) => {
  const { payment, digits } = await service.findPayment(c.var.db, c.req.valid('param').id, paymentReach(c.var.principal, payments.orderId));
  const query = c.req.valid('query');
  const { items, total } = await refundService.listRefunds(c.var.db, payment.id, digits, query, refundListQuery);
  return list(
    c,
    items.map((r) => project(r, query.fields)),
    pagination(query.page, query.limit, total),
  );
};

export const stripeWebhook: AppRouteHandler<typeof routes.stripeWebhook> = async (c) => {
  if (missingStripeSettings(c.env).length) throw new ApiError('NOT_FOUND', 'Stripe is not set up on this store (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET)');
  const event = await verifiedEvent(c.env, await c.req.text(), c.req.header('Stripe-Signature'));
  const outcome = await handleStripeEvent(c.var.db, c.env, event);
  // Stripe is talking to us: a good moment to settle anything else left pending.
  c.executionCtx.waitUntil(reconcilePending(c.env).catch((error) => console.error(JSON.stringify({ level: 'error', message: 'reconciliation failed', error: String(error) }))));
  return ok(c, { received: true as const, outcome }, 'Event received');
};
