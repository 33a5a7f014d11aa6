import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type OrderRow, orders, type PaymentRow, payments, type REFUND_DESTINATIONS, type RefundRow, refundLines, refunds, returns } from '../../db/schema';
import { withGuards } from '../../lib/db-guards';
import { ApiError } from '../../lib/errors';
import { outboxEventWhere } from '../../lib/events';
import { ID_PREFIX, newId } from '../../lib/ids';
import { insertWhere } from '../../lib/insert-where';
import { toMajor } from '../../lib/money';
import { listPlan, type ParsedListQuery } from '../../lib/query';
import {
  amountInMinor,
  cardsToRevoke,
  cardValueRefusal,
  leavesCardValue,
  recordRefund,
  refundByLines,
  refundCreatedData,
  refuseSpentCards,
  revocationStatements,
  spentMeanwhile,
  unchangedSince,
} from '../ledger';
import type { refundListQuery } from './payments.query';
import type { CreateRefundInput, Refund } from './payments.schemas';
import { providerCall } from './payments.service';
import { refundProvider } from './providers/registry';
import type { StripeSettings } from './providers/stripe';

type RefundDestination = (typeof REFUND_DESTINATIONS)[number];

export const toRefund = ({ requestKey: _key, ...row }: RefundRow, digits: number): Refund => ({
  ...row,
  amount: toMajor(row.amount, digits),
  shippingAmount: toMajor(row.shippingAmount, digits),
});

export async function listRefunds(db: Database, paymentId: string, digits: number, query: ParsedListQuery<typeof refundListQuery.filters>, config: typeof refundListQuery) {
  const plan = listPlan(config, query, [eq(refunds.paymentId, paymentId)]);
  const [rows, totals] = await db.batch([
    db
      .select()
      .from(refunds)
      .where(plan.where)
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    db.select({ total: count() }).from(refunds).where(plan.matching),
  ]);
  return { items: rows.map((r) => toRefund(r, digits)), total: totals[0]!.total };
}

/** What a payment's pending refunds are taking (`paymentId` a value or the payments.id column of the enclosing query). */
export const pendingRefunds = (paymentId: string | typeof payments.id) =>
  sql<number>`(SELECT coalesce(sum(${refunds.amount}), 0) FROM ${refunds} WHERE ${refunds.paymentId} = ${paymentId} AND ${refunds.status} = 'pending')`;

/** Every refund of an order's payments, newest first (the admin panel's order page). */
export async function listOrderRefunds(db: Database, orderId: string): Promise<Refund[]> {
  const rows = await db
    .select({ refund: refunds, digits: orders.minorUnits })
    .from(refunds)
    .innerJoin(orders, eq(orders.id, refunds.orderId))
    .where(eq(refunds.orderId, orderId))
    .orderBy(desc(refunds.createdAt));
  return rows.map((r) => toRefund(r.refund, r.digits));
}

/**
 * Refunds (part of) a completed payment, never losing or doubling money (settle.ts): a `pending`
 * refund row is inserted only if the amount fits in what is neither refunded nor taken by other
 * pending refunds (checked inside the insert); the provider refunds, keyed by the refund's id; and
 * recordRefund records the outcome. A retry with the same Idempotency-Key resumes its pending
 * refund, which the provider answers as before: one refund at the provider, however often asked.
 * A refund the provider refuses is kept as `failed` with the reason, and answered 409.
 */
export async function createRefund(
  db: Database,
  env: StripeSettings,
  payment: PaymentRow,
  order: OrderRow,
  input: CreateRefundInput,
  { actor, requestKey = null, now = new Date() }: { actor: string; requestKey?: string | null; now?: Date },
): Promise<Refund> {
  const digits = order.minorUnits;
  const resumed = requestKey ? await db.query.refunds.findFirst({ where: eq(refunds.requestKey, requestKey) }) : undefined;
  if (resumed && resumed.paymentId !== payment.id) throw ApiError.conflict(`This Idempotency-Key started refund '${resumed.id}' of payment '${resumed.paymentId}'`);
  const destination = refundDestination(payment, order, input);
  const provider = refundProvider({ destination }, payment.provider, env, db);
  const row = resumed ?? (await insertPending(db, payment, order, { ...input, destination }, { actor, requestKey, now }));
  if (row.status !== 'pending') return toRefund(row, digits);
  const result = await providerCall(() => provider.refund({ refund: row, payment, digits }));
  const recorded = await recordRefund(db, row, result, { actor });
  if (recorded.status === 'failed') throw ApiError.conflict(`The provider refused the refund: ${recorded.failureReason ?? 'no reason given'}`);
  return toRefund(recorded, digits);
}

/** The payments whose refunds go to store credit: money that never left the store (an exchange's is the value of returned goods). */
const CREDIT_ONLY: readonly string[] = ['store_credit', 'exchange'];

/** Where the money goes: a store-credit or exchange payment always to store credit; store credit needs the order's customer (422 for a guest's). */
function refundDestination(payment: PaymentRow, order: OrderRow, input: CreateRefundInput): RefundDestination {
  const destination = CREDIT_ONLY.includes(payment.provider) ? 'store_credit' : (input.destination ?? 'payment');
  if (destination === 'store_credit' && !order.customerId)
    throw ApiError.validation([{ field: 'destination', problem: 'store credit is for orders of a customer account, and this is a guest order' }]);
  return destination;
}

async function insertPending(
  db: Database,
  payment: PaymentRow,
  order: OrderRow,
  input: Omit<CreateRefundInput, 'destination'> & { destination: RefundDestination },
  { actor, requestKey, now }: { actor: string; requestKey: string | null; now: Date },
): Promise<RefundRow> {
  const digits = order.minorUnits;
  if (payment.status !== 'completed' && payment.status !== 'partially_refunded') {
    throw ApiError.conflict(`Payment '${payment.id}' is ${payment.status}: there is nothing to refund`);
  }
  if (input.returnId) await assertReturnOf(db, order, input.returnId);
  const byLines = input.lines || input.shipping !== undefined ? await refundByLines(db, order, input.lines ?? [], input.shipping) : null;
  const left = await leftToRefund(db, payment);
  const computed = byLines ? byLines.lines.reduce((sum, l) => sum + l.amount, byLines.shipping) : left;
  // With lines, `amount` is staff's override of what they are worth.
  const amount = input.amount === undefined ? computed : amountInMinor(input.amount, digits);
  const tooMuch = () => ApiError.conflict(`The refund is more than is left on payment '${payment.id}' (${toMajor(Math.max(left, 0), digits)} ${payment.currency})`, 'amount');
  if (amount > left || amount <= 0) throw tooMuch();
  // Units of a gift-card line take what is given back for them off the cards they issued (409 when one was spent).
  const revoking = await cardsToRevoke(db, order, byLines?.lines ?? []);
  refuseSpentCards(revoking.takes, digits);
  const cardValue = {
    amount,
    cardLinesAmount: (byLines?.lines ?? []).filter((l) => revoking.cardLines.has(l.orderLineId)).reduce((sum, l) => sum + l.amount, 0),
    lines: (byLines?.lines ?? []).map((l) => l.orderLineId),
    cardsRead: revoking.cardsRead,
  };
  const ts = now.toISOString();
  const row: RefundRow = {
    id: newId(ID_PREFIX.refund, now.getTime()),
    paymentId: payment.id,
    orderId: payment.orderId,
    amount,
    currency: payment.currency,
    reason: input.reason ?? null,
    providerReference: null,
    status: 'pending',
    failureReason: null,
    requestKey,
    destination: input.destination,
    returnId: input.returnId ?? null,
    shippingAmount: byLines?.shipping ?? 0,
    createdAt: ts,
    updatedAt: ts,
  };
  const fits = sql`EXISTS (SELECT 1 FROM ${payments} WHERE ${payments.id} = ${payment.id} AND ${payments.status} IN ('completed', 'partially_refunded')
    AND ${payments.amountRefunded} + ${pendingRefunds(payment.id)} + ${amount} <= ${payments.amount})`;
  const written = sql`EXISTS (SELECT 1 FROM ${refunds} WHERE ${refunds.id} = ${row.id})`;
  const [inserted] = (await withGuards(
    () =>
      db.batch([
        insertWhere(db, refunds, row, sql`${fits} AND ${leavesCardValue(order.id, cardValue)}${byLines ? sql` AND ${unchangedSince(order, byLines)}` : sql``}`),
        ...(byLines?.lines ?? []).map((l) => insertWhere(db, refundLines, { refundId: row.id, orderLineId: l.orderLineId, quantity: l.quantity, amount: l.amount }, written)),
        ...revocationStatements(db, revoking.takes, { refundId: row.id, order, actor, now, written }),
        outboxEventWhere(db, 'refund.created', refundCreatedData(row, order, byLines?.lines ?? []), written, now),
      ] as never),
    { insufficient_gift_card_balance: () => spentMeanwhile(db, revoking.takes, digits) },
  ).catch((error) => {
    if (/UNIQUE constraint failed: refunds\.request_key/.test(String(error?.cause ?? error))) throw ApiError.conflict('A request with this Idempotency-Key is in progress');
    throw error;
  })) as [D1Result];
  if (inserted.meta.changes === 0) {
    const cardsHold = await cardValueRefusal(db, order, cardValue);
    if (cardsHold) throw cardsHold;
    if (byLines) throw ApiError.conflict(`Order '${order.id}' was refunded meanwhile; try again`);
    throw tooMuch();
  }
  return row;
}

/** A refund names a return of its own order (422 otherwise); completing it moves that return to `refunded` (settle.ts). */
async function assertReturnOf(db: Database, order: OrderRow, returnId: string): Promise<void> {
  const [found] = await db
    .select({ id: returns.id })
    .from(returns)
    .where(and(eq(returns.id, returnId), eq(returns.orderId, order.id)));
  if (!found) throw ApiError.validation([{ field: 'returnId', problem: `no return '${returnId}' of this order`, code: 'not_found' }]);
}

/** The order's payment a refund comes from: the one named (422 if it is not a completed payment of the order), else the one with the most left to refund (409 if none). */
export async function paymentToRefund(db: Database, order: OrderRow, named: string | undefined): Promise<PaymentRow> {
  const rows = await db
    .select({ payment: payments, pending: pendingRefunds(payments.id) })
    .from(payments)
    .where(and(eq(payments.orderId, order.id), inArray(payments.status, ['completed', 'partially_refunded'])));
  const left = (r: (typeof rows)[number]) => r.payment.amount - r.payment.amountRefunded - r.pending;
  if (named) {
    const found = rows.find((r) => r.payment.id === named);
    if (!found) throw ApiError.validation([{ field: 'paymentId', problem: `no completed payment '${named}' of order '${order.id}'`, code: 'not_found' }]);
    return found.payment;
  }
  const best = rows.sort((a, b) => left(b) - left(a))[0];
  if (!best) throw ApiError.conflict(`Order '${order.id}' has no completed payment to refund`);
  return best.payment;
}

/** What a payment still has to give back: its amount less what was refunded and what pending refunds take. */
export async function leftToRefund(db: Database, payment: PaymentRow): Promise<number> {
  const [row] = await db
    .select({ pending: pendingRefunds(payment.id) })
    .from(payments)
    .where(eq(payments.id, payment.id));
  return payment.amount - payment.amountRefunded - (row?.pending ?? 0);
}
