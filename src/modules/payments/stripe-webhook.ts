import { and, eq } from 'drizzle-orm';
import Stripe from 'stripe';
import type { Database } from '../../db/client';
import { orders, type PaymentRow, payments, providerEvents, type RefundRow, refunds } from '../../db/schema';
import { ApiError, detailOf } from '../../lib/errors';
import { outboxEvent } from '../../lib/events';
import { type GiftCardSettings, orderNumberOf, recordCharge, recordRefund, refundCreatedData } from '../ledger';
import { ID_PREFIX, newId } from '../../lib/ids';
import { toMajor } from '../../lib/money';
import { type StripeSettings, chargeOutcome, fromStripeAmount, stripeClient, stripeProvider } from './providers/stripe';

import { config } from '../../config';

/**
 * Stripe's webhook (POST /api/payments/stripe/webhook): events verified with the endpoint's signing
 * secret (Stripe-Signature, 5 minutes' tolerance), each handled once (provider_events), every
 * effect recorded through settle.ts, so an event that repeats what a request or reconciliation
 * already recorded changes nothing.
 */

/** How long a signed event stays acceptable: Stripe's own default, against replays of old events. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;
const ACTOR = 'system:stripe';

/** The event, if the signature verifies; 400 otherwise. */
export async function verifiedEvent(env: StripeSettings & GiftCardSettings, payload: string, signature: string | undefined): Promise<Stripe.Event> {
  if (!signature)
    throw new ApiError('INVALID_REQUEST', 'The Stripe-Signature header is missing', {
      details: [detailOf({ field: 'Stripe-Signature', problem: 'is required', code: 'required' })],
    });
  try {
    return await Stripe.webhooks.constructEventAsync(payload, signature, config(env).STRIPE_WEBHOOK_SECRET!, SIGNATURE_TOLERANCE_SECONDS, Stripe.createSubtleCryptoProvider());
  } catch (error) {
    throw new ApiError('INVALID_REQUEST', `The Stripe-Signature does not verify: ${(error as Error).message}`, {
      details: [detailOf({ field: 'Stripe-Signature', problem: 'does not verify' })],
    });
  }
}

export type Handled = 'handled' | 'duplicate' | 'ignored';

export async function handleStripeEvent(db: Database, env: StripeSettings & GiftCardSettings, event: Stripe.Event, now = new Date()): Promise<Handled> {
  const seen = await db.query.providerEvents.findFirst({ where: and(eq(providerEvents.provider, 'stripe'), eq(providerEvents.id, event.id)) });
  if (seen) return 'duplicate';
  const handled = await dispatch(db, env, event, now);
  await db.insert(providerEvents).values({ provider: 'stripe', id: event.id, type: event.type, handledAt: now.toISOString() }).onConflictDoNothing();
  return handled;
}

async function dispatch(db: Database, env: StripeSettings & GiftCardSettings, event: Stripe.Event, now: Date): Promise<Handled> {
  switch (event.type) {
    case 'payment_intent.succeeded':
    case 'payment_intent.payment_failed':
    case 'payment_intent.canceled':
      return settleIntent(db, env, event.data.object, now);
    case 'charge.refunded':
      return syncRefunds(db, env, intentId(event.data.object.payment_intent), now);
    case 'refund.created':
    case 'refund.updated':
    case 'refund.failed':
      return syncRefunds(db, env, intentId(event.data.object.payment_intent), now);
    case 'charge.dispute.created':
    case 'charge.dispute.updated':
    case 'charge.dispute.closed':
      return recordDispute(db, event.data.object, event.type === 'charge.dispute.created', now);
    default:
      return 'ignored';
  }
}

const intentId = (value: string | { id: string } | null | undefined) => (typeof value === 'string' ? value : (value?.id ?? null));

/** Our payment of a PaymentIntent: by the id in its metadata, else by its own id. */
async function paymentOf(db: Database, intent: { id: string; metadata?: Record<string, string> | null }): Promise<PaymentRow | undefined> {
  const ours = intent.metadata?.payment_id;
  if (ours) {
    const found = await db.query.payments.findFirst({ where: eq(payments.id, ours) });
    // Named in its metadata but not written (yet): Stripe retries a non-2xx answer for days.
    if (!found) throw ApiError.conflict(`Payment '${ours}' is not recorded yet; answer later`);
    return found;
  }
  return db.query.payments.findFirst({ where: and(eq(payments.provider, 'stripe'), eq(payments.providerReference, intent.id)) });
}

/**
 * Succeeded: the payment completes, if the intent is for the payment's amount and currency (else it
 * fails: chargeOutcome). Failed: the attempt was declined and the PaymentIntent waits
 * for another card; it is cancelled, so it can never succeed behind a payment recorded as failed
 * (the storefront starts a new payment), and the payment fails with the decline's reason.
 */
async function settleIntent(db: Database, env: StripeSettings & GiftCardSettings, intent: Stripe.PaymentIntent, now: Date): Promise<Handled> {
  const payment = await paymentOf(db, intent);
  if (payment?.provider !== 'stripe') return 'ignored';
  const order = (await db.query.orders.findFirst({ where: eq(orders.id, payment.orderId) }))!;
  const provider = stripeProvider(env);
  const request = { payment: { ...payment, providerReference: intent.id }, digits: order.minorUnits, email: order.email };
  let result = chargeOutcome(intent, request);
  if (declined(intent)) {
    result = await provider.cancel(request);
    if (result.status === 'failed') result = { ...result, failureReason: intent.last_payment_error?.message ?? result.failureReason };
  }
  await recordCharge(db, provider, payment, result, { actor: ACTOR, env, now }).catch((error) => {
    // Completed for an order cancelled meanwhile: the charge was returned and the payment failed; handled.
    if (!(error instanceof ApiError && error.code === 'CONFLICT')) throw error;
  });
  return 'handled';
}

/** A declined attempt leaves the PaymentIntent open for another card. */
const declined = (intent: Stripe.PaymentIntent) => intent.status === 'requires_payment_method' && intent.last_payment_error != null;

/**
 * Brings our refunds of a PaymentIntent in line with Stripe's: ours still pending are recorded as
 * Stripe has them; one made at Stripe (the dashboard) is added, so the store's amounts and events
 * follow it. A payment that never completed (pending, or failed: declined, not accepted, or voided)
 * put no money on the order, so a refund of its intent has nothing to give back here.
 */
async function syncRefunds(db: Database, env: StripeSettings & GiftCardSettings, intent: string | null, now: Date): Promise<Handled> {
  if (!intent) return 'ignored';
  const payment = await db.query.payments.findFirst({ where: and(eq(payments.provider, 'stripe'), eq(payments.providerReference, intent)) });
  if (!payment || payment.status === 'pending' || payment.status === 'failed') return 'ignored';
  const order = (await db.query.orders.findFirst({ where: eq(orders.id, payment.orderId) }))!;
  const [theirs, ours] = await Promise.all([
    stripeClient(env).refunds.list({ payment_intent: intent, limit: 100 }),
    db.query.refunds.findMany({ where: eq(refunds.paymentId, payment.id) }),
  ]);
  for (const refund of theirs.data) {
    const known = ours.find((r) => r.id === refund.metadata?.refund_id || r.providerReference === refund.id);
    const result = refund.status === 'succeeded' ? 'completed' : refund.status === 'failed' || refund.status === 'canceled' ? 'failed' : 'pending';
    const outcome = { status: result, reference: refund.id, failureReason: result === 'failed' ? (refund.failure_reason ?? refund.status ?? null) : null } as const;
    if (known) {
      if (known.status === 'pending') await recordRefund(db, known, outcome, { actor: ACTOR, now });
      continue;
    }
    if (result !== 'completed') continue;
    const ts = now.toISOString();
    const row: RefundRow = {
      id: newId(ID_PREFIX.refund, now.getTime()),
      paymentId: payment.id,
      orderId: payment.orderId,
      amount: fromStripeAmount(refund.amount, order.minorUnits, payment.currency),
      currency: payment.currency,
      reason: refund.reason ? `Refunded at Stripe (${refund.reason})` : 'Refunded at Stripe',
      providerReference: refund.id,
      status: 'pending',
      failureReason: null,
      requestKey: null,
      destination: 'payment',
      returnId: null,
      shippingAmount: 0,
      createdAt: ts,
      updatedAt: ts,
    };
    await db.batch([db.insert(refunds).values(row), outboxEvent(db, 'refund.created', refundCreatedData(row, order, []), now)]);
    await recordRefund(db, row, outcome, { actor: ACTOR, now });
  }
  return 'handled';
}

/** A dispute (chargeback): its status on the payment, and `payment.disputed` when it opens. */
async function recordDispute(db: Database, dispute: Stripe.Dispute, opened: boolean, now: Date): Promise<Handled> {
  const intent = intentId(dispute.payment_intent);
  if (!intent) return 'ignored';
  const payment = await db.query.payments.findFirst({ where: and(eq(payments.provider, 'stripe'), eq(payments.providerReference, intent)) });
  if (!payment) return 'ignored';
  const order = (await db.query.orders.findFirst({ where: eq(orders.id, payment.orderId) }))!;
  const update = db.update(payments).set({ disputeStatus: dispute.status, updatedAt: now.toISOString() }).where(eq(payments.id, payment.id));
  if (!opened) {
    await update;
    return 'handled';
  }
  const data = {
    paymentId: payment.id,
    orderId: payment.orderId,
    orderNumber: orderNumberOf(order),
    amount: toMajor(fromStripeAmount(dispute.amount, order.minorUnits, payment.currency), order.minorUnits),
    currency: payment.currency,
    reason: dispute.reason,
    status: dispute.status,
  };
  await db.batch([update, outboxEvent(db, 'payment.disputed', data, now)]);
  return 'handled';
}
