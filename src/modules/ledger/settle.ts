import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type OrderRow, type OrderStatus, orderLines, orders, type PaymentRow, payments, type RefundRow, refundLines, refunds, writeGuards } from '../../db/schema';
import { creditEntry } from './store-credit';
import { GUARDS, violatedGuard } from '../../lib/db-guards';
import { ApiError } from '../../lib/errors';
import { outboxEvent } from '../../lib/events';
import { toMajor } from '../../lib/money';
import { returnRefundedStatement } from './return-moves';
import { orderNumberOf, statusChangeStatements } from './order-status';
import { followUpOrderStatus } from './order-follow-up';
import { boughtGiftCardStatements, type GiftCardSettings } from './bought-gift-cards';
import { reinstatementStatements } from './revoke-bought-cards';
import { refundEventData } from './refund-event';
import { paidInFull } from './amount-due';
import type { ChargeResult, PaymentProvider, RefundResult } from './payment-provider';

/**
 * Never lost, never doubled. A payment or refund is written `pending` before its provider is asked,
 * under the id the provider uses as its idempotency key; its outcome is recorded here afterwards.
 * Whatever stops between the two (a crash, a D1 error, a lost answer), the row stays pending and is
 * settled later by asking the provider again with the same key: by the client's retry with the
 * same Idempotency-Key (request_key finds the row), by the provider's webhook, or by reconciliation
 * (reconcile.ts). Each recording batch first asserts the row is still pending (the write guards
 * `payment_settled`, `refund_settled`), so two of them settling one row at once record it once.
 */

export interface Settling {
  actor: string;
  now?: Date;
}

/** Settling a charge: paid in full, the order issues the gift cards it bought, whose codes need JWT_SECRET. */
export interface SettlingCharge extends Settling {
  env: GiftCardSettings;
}

/** The batch's first statement: aborts it (guard:<name>) unless the row is still pending. */
function guardStatement(db: Database, table: typeof payments | typeof refunds, id: string, guard: 'payment_settled' | 'refund_settled') {
  return db.insert(writeGuards).values({ name: guard, ok: sql`(SELECT ${table.status} = 'pending' FROM ${table} WHERE ${table.id} = ${id})` });
}

async function readPayment(db: Database, id: string): Promise<PaymentRow> {
  return (await db.query.payments.findFirst({ where: eq(payments.id, id) }))!;
}

async function readOrder(db: Database, id: string): Promise<OrderRow> {
  return (await db.query.orders.findFirst({ where: eq(orders.id, id) }))!;
}

/**
 * Records what the provider said of a pending payment and returns the row as it now stands. A
 * completed charge adds to the order's amountPaid, emits `payment.completed` and, once the order is
 * paid in full while `pending`, moves it to `processing`; a failed one emits `payment.failed`. A
 * charge that completed for an order that can no longer take it (cancelled meanwhile) is given back
 * through the provider (keyed `<payment id>_void`) and recorded as failed.
 */
export async function recordCharge(
  db: Database,
  provider: PaymentProvider,
  payment: PaymentRow,
  result: ChargeResult,
  { actor, env, now = new Date() }: SettlingCharge,
): Promise<PaymentRow> {
  const ts = now.toISOString();
  const outcome = { providerReference: result.reference ?? payment.providerReference, failureReason: result.failureReason, updatedAt: ts };
  const pendingRow = and(eq(payments.id, payment.id), eq(payments.status, 'pending'));

  if (result.status === 'pending') {
    await db.update(payments).set(outcome).where(pendingRow);
    return { ...payment, ...outcome };
  }
  const order = await readOrder(db, payment.orderId);
  const digits = order.minorUnits;
  const eventData = {
    paymentId: payment.id,
    orderId: order.id,
    orderNumber: orderNumberOf(order),
    provider: payment.provider,
    amount: toMajor(payment.amount, digits),
    currency: payment.currency,
  };
  try {
    if (result.status === 'failed') {
      await db.batch([
        guardStatement(db, payments, payment.id, 'payment_settled'),
        db
          .update(payments)
          .set({ ...outcome, status: 'failed' })
          .where(eq(payments.id, payment.id)),
        outboxEvent(db, 'payment.failed', { ...eventData, failureReason: result.failureReason }, now),
      ]);
      return { ...payment, ...outcome, status: 'failed' };
    }
    const paidNow = order.status === 'pending' && paidInFull({ amountPaid: order.amountPaid + payment.amount, total: order.total });
    const note = `paid in full by payment ${payment.id}`;
    const bought = paidNow ? await boughtGiftCardStatements(db, env, order, now) : [];
    await db.batch([
      guardStatement(db, payments, payment.id, 'payment_settled'),
      db
        .update(payments)
        .set({ ...outcome, status: 'completed', failureReason: null })
        .where(eq(payments.id, payment.id)),
      db
        .update(orders)
        .set({ amountPaid: sql`${orders.amountPaid} + ${payment.amount}`, updatedAt: ts })
        .where(eq(orders.id, order.id)),
      ...(provider.settlement?.(db, payment, order, { actor, now }) ?? []),
      outboxEvent(db, 'payment.completed', eventData, now),
      ...(paidNow ? statusChangeStatements(db, order, 'processing', { actor, note, now }) : []),
      ...bought,
    ] as never);
    if (!paidNow) await moveOnOncePaid(db, env, order.id, { actor, note, now });
    return { ...payment, ...outcome, status: 'completed', failureReason: null };
  } catch (error) {
    const guard = violatedGuard(error);
    if (guard === 'payment_settled') return readPayment(db, payment.id);
    if (!guard) throw error;
    if (guard === provider.settlementGuard) {
      // The provider's own money ran short (store credit spent meanwhile): recorded as a declined charge, answered 409.
      await recordCharge(db, provider, payment, { status: 'failed', reference: outcome.providerReference, failureReason: GUARDS[guard] }, { actor, env, now });
      throw ApiError.conflict(GUARDS[guard], 'amount');
    }
    return voidCharge(db, provider, payment, order, outcome, ts);
  }
}

/**
 * Moves a `pending` order paid in full on to `processing`, issuing the gift cards it bought in the
 * same batch (none without `env`: only an order with nothing to pay, which bought none worth
 * anything), when the write that paid it could not know it would (two partial payments at once,
 * each reading the order before the other). One move only: a racing one trips the transition guard.
 */
function moveOnOncePaid(db: Database, env: GiftCardSettings | null, orderId: string, { actor, note, now = new Date() }: Settling & { note: string }) {
  return followUpOrderStatus(db, orderId, ['pending'], 'processing', paidInFull, { actor, note }, async (paid) => (env ? boughtGiftCardStatements(db, env, paid, now) : []));
}

/**
 * An order placed with nothing to pay (its promotions took its whole total) is paid in full from
 * the start: it moves on to `processing` at once, by the move a last payment makes (its history row
 * and `order.updated`), with no payment, as there is no money to record (its paymentStatus says
 * `paid`). A total of 0 is lines whose totals are all 0: no unit of a gift-card product was paid
 * for, so no card is issued (bought-gift-cards.ts). Returns the order as it now stands.
 */
export async function settleNothingOwed(db: Database, order: OrderRow, { actor, now = new Date() }: Settling): Promise<OrderRow> {
  if (order.status !== 'pending' || !paidInFull(order)) return order;
  await moveOnOncePaid(db, null, order.id, { actor, note: 'nothing to pay', now });
  return readOrder(db, order.id);
}

/** The order moved (a cancellation) between the charge and its recording: the money goes back and the payment is failed. */
async function voidCharge(db: Database, provider: PaymentProvider, payment: PaymentRow, order: OrderRow, outcome: Partial<PaymentRow>, ts: string): Promise<PaymentRow> {
  const paid = { ...payment, ...outcome, status: 'completed' as const };
  const voidRefund: RefundRow = {
    id: `${payment.id}_void`,
    paymentId: payment.id,
    orderId: order.id,
    amount: payment.amount,
    currency: payment.currency,
    reason: 'order changed while paying',
    providerReference: null,
    status: 'pending',
    failureReason: null,
    requestKey: null,
    destination: 'payment',
    returnId: null,
    shippingAmount: 0,
    createdAt: ts,
    updatedAt: ts,
  };
  const returned = await provider.refund({ refund: voidRefund, payment: paid, digits: order.minorUnits });
  if (returned.status === 'failed') throw new Error(`payment ${payment.id}: the charge for ${order.status} order ${order.id} could not be returned: ${returned.failureReason}`);
  const failureReason = `Order ${order.id} was ${order.status} when the charge completed; the charge was returned`;
  await db
    .update(payments)
    .set({ ...outcome, status: 'failed', failureReason })
    .where(and(eq(payments.id, payment.id), eq(payments.status, 'pending')));
  throw ApiError.conflict(`Order '${order.id}' changed while paying; the charge was returned`);
}

/** A failed refund no longer holds the units it named (refund_lines' trigger counted them on insert); what it took off gift cards goes back (reinstatementStatements). */
function releaseRefundLines(db: Database, refundId: string) {
  const held = sql`(SELECT ${refundLines.quantity} FROM ${refundLines} WHERE ${refundLines.refundId} = ${refundId} AND ${refundLines.orderLineId} = ${orderLines.id})`;
  return [
    db
      .update(orderLines)
      .set({ quantityRefunded: sql`${orderLines.quantityRefunded} - ${held}` })
      .where(sql`${orderLines.id} IN (SELECT ${refundLines.orderLineId} FROM ${refundLines} WHERE ${refundLines.refundId} = ${refundId})`),
    db.delete(refundLines).where(eq(refundLines.refundId, refundId)),
  ];
}

/** Orders in these states move to `refunded` once everything paid has been refunded (docs/api.md, Carts and orders). */
export const REFUNDABLE_ORDER: readonly OrderStatus[] = ['processing', 'shipped', 'completed'];
const fullyRefunded = (o: Pick<OrderRow, 'amountPaid' | 'amountRefunded'>) => o.amountPaid > 0 && o.amountRefunded >= o.amountPaid;

/**
 * Records what the provider said of a pending refund and returns the row as it now stands. A
 * completed refund raises the payment's and the order's amountRefunded (the triggers refuse more
 * than was paid), emits `payment.refunded` and, once the order has given back everything paid,
 * moves it to `refunded`.
 */
export async function recordRefund(db: Database, refund: RefundRow, result: RefundResult, { actor, now = new Date() }: Settling): Promise<RefundRow> {
  const ts = now.toISOString();
  const outcome = { providerReference: result.reference ?? refund.providerReference, failureReason: result.failureReason, updatedAt: ts };
  if (result.status === 'pending') {
    await db
      .update(refunds)
      .set(outcome)
      .where(and(eq(refunds.id, refund.id), eq(refunds.status, 'pending')));
    return { ...refund, ...outcome };
  }
  try {
    if (result.status === 'failed') {
      await db.batch([
        guardStatement(db, refunds, refund.id, 'refund_settled'),
        db
          .update(refunds)
          .set({ ...outcome, status: 'failed' })
          .where(eq(refunds.id, refund.id)),
        ...releaseRefundLines(db, refund.id),
        ...reinstatementStatements(db, refund.id, now),
      ] as never);
      return { ...refund, ...outcome, status: 'failed' };
    }
    const [order, lines] = await Promise.all([readOrder(db, refund.orderId), db.select().from(refundLines).where(eq(refundLines.refundId, refund.id))]);
    const amount = refund.amount;
    const digits = order.minorUnits;
    const orderDone = REFUNDABLE_ORDER.includes(order.status) && fullyRefunded({ amountPaid: order.amountPaid, amountRefunded: order.amountRefunded + amount });
    const note = `refunded in full (refund ${refund.id})`;
    await db.batch([
      guardStatement(db, refunds, refund.id, 'refund_settled'),
      db
        .update(refunds)
        .set({ ...outcome, status: 'completed', failureReason: null })
        .where(eq(refunds.id, refund.id)),
      db
        .update(payments)
        .set({
          amountRefunded: sql`${payments.amountRefunded} + ${amount}`,
          status: sql`CASE WHEN ${payments.amountRefunded} + ${amount} >= ${payments.amount} THEN 'refunded' ELSE 'partially_refunded' END`,
          updatedAt: ts,
        })
        .where(eq(payments.id, refund.paymentId)),
      db
        .update(orders)
        .set({ amountRefunded: sql`${orders.amountRefunded} + ${amount}`, updatedAt: ts })
        .where(eq(orders.id, order.id)),
      outboxEvent(db, 'payment.refunded', refundEventData(refund, order, lines), now),
      ...(refund.destination === 'store_credit' && order.customerId
        ? creditEntry(
            db,
            { customerId: order.customerId, currency: refund.currency, amount, reason: 'refund', orderId: order.id, refundId: refund.id, returnId: refund.returnId, actor },
            digits,
            now,
          ).statements
        : []),
      // A received return this refund settles is refunded with it (a no-op in any other state).
      ...(refund.returnId ? [returnRefundedStatement(db, refund.returnId, now)] : []),
      ...(orderDone ? statusChangeStatements(db, order, 'refunded', { actor, note, now }) : []),
    ] as never);
    if (!orderDone) await followUpOrderStatus(db, order.id, REFUNDABLE_ORDER, 'refunded', fullyRefunded, { actor, note });
    return { ...refund, ...outcome, status: 'completed', failureReason: null };
  } catch (error) {
    if (violatedGuard(error) === 'refund_settled') return (await db.query.refunds.findFirst({ where: eq(refunds.id, refund.id) }))!;
    throw error;
  }
}
