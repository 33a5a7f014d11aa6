import { count, desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type OrderRow, orders, type PaymentRow, payments, type RefundRow, refunds } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { ID_PREFIX, newId } from '../../lib/ids';
import { insertWhere } from '../../lib/insert-where';
import { toMajor } from '../../lib/money';
import { listPlan, type ParsedListQuery } from '../../lib/query';
import { amountInMinor } from './amounts';
import type { refundListQuery } from './payments.query';
import type { CreateRefundInput, Refund } from './payments.schemas';
import { providerCall } from './payments.service';
import { paymentProvider } from './providers/registry';
import type { StripeSettings } from './providers/stripe';
import { recordRefund } from './settle';

export const toRefund = ({ requestKey: _key, ...row }: RefundRow, digits: number): Refund => ({ ...row, amount: toMajor(row.amount, digits) });

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

const pendingRefunds = (paymentId: string) =>
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
  const provider = paymentProvider(payment.provider, env);
  const resumed = requestKey ? await db.query.refunds.findFirst({ where: eq(refunds.requestKey, requestKey) }) : undefined;
  if (resumed && resumed.paymentId !== payment.id) throw ApiError.conflict(`This Idempotency-Key started refund '${resumed.id}' of payment '${resumed.paymentId}'`);
  const row = resumed ?? (await insertPending(db, payment, digits, input, requestKey, now));
  if (row.status !== 'pending') return toRefund(row, digits);
  const result = await providerCall(() => provider.refund({ refund: row, payment, digits }));
  const recorded = await recordRefund(db, row, result, { actor });
  if (recorded.status === 'failed') throw ApiError.conflict(`The provider refused the refund: ${recorded.failureReason ?? 'no reason given'}`);
  return toRefund(recorded, digits);
}

async function insertPending(db: Database, payment: PaymentRow, digits: number, input: CreateRefundInput, requestKey: string | null, now: Date): Promise<RefundRow> {
  if (payment.status !== 'completed' && payment.status !== 'partially_refunded') {
    throw ApiError.conflict(`Payment '${payment.id}' is ${payment.status}: there is nothing to refund`);
  }
  const [{ pending = 0 } = {}] = await db
    .select({ pending: pendingRefunds(payment.id) })
    .from(payments)
    .where(eq(payments.id, payment.id));
  const left = payment.amount - payment.amountRefunded - pending;
  const amount = input.amount === undefined ? left : amountInMinor(input.amount, digits);
  const tooMuch = () => ApiError.conflict(`The refund is more than is left on payment '${payment.id}' (${toMajor(Math.max(left, 0), digits)} ${payment.currency})`, 'amount');
  if (amount > left || amount <= 0) throw tooMuch();
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
    destination: 'payment',
    returnId: null,
    shippingAmount: 0,
    createdAt: ts,
    updatedAt: ts,
  };
  const fits = sql`EXISTS (SELECT 1 FROM ${payments} WHERE ${payments.id} = ${payment.id} AND ${payments.status} IN ('completed', 'partially_refunded')
    AND ${payments.amountRefunded} + ${pendingRefunds(payment.id)} + ${amount} <= ${payments.amount})`;
  const inserted = await insertWhere(db, refunds, row, fits).catch((error) => {
    if (/UNIQUE constraint failed: refunds\.request_key/.test(String(error?.cause ?? error))) throw ApiError.conflict('A request with this Idempotency-Key is in progress');
    throw error;
  });
  if (inserted.meta.changes === 0) throw tooMuch();
  return row;
}
