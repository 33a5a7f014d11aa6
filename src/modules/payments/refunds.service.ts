import { count, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type OrderRow, type OrderStatus, orders, type PaymentRow, payments, type RefundRow, refunds } from '../../db/schema';
import { withGuards } from '../../lib/db-guards';
import { ApiError } from '../../lib/errors';
import { ID_PREFIX, newId } from '../../lib/ids';
import { toMajor } from '../../lib/money';
import { listPlan, type ParsedListQuery } from '../../lib/query';
import { statusChangeStatements } from '../orders/order-status';
import { amountInMinor } from './amounts';
import { followUpOrderStatus } from './order-follow-up';
import type { refundListQuery } from './payments.query';
import type { CreateRefundInput, Refund } from './payments.schemas';
import { paymentProvider } from './providers/registry';

export const toRefund = (row: RefundRow, digits: number): Refund => ({ ...row, amount: toMajor(row.amount, digits) });

/** Orders in these states move to `refunded` once everything paid has been refunded (docs/api.md, Carts and orders). */
const REFUNDABLE_ORDER: readonly OrderStatus[] = ['processing', 'shipped', 'completed'];
const fullyRefunded = (o: Pick<OrderRow, 'amountPaid' | 'amountRefunded'>) => o.amountPaid > 0 && o.amountRefunded >= o.amountPaid;

export async function listRefunds(db: Database, paymentId: string, digits: number, query: ParsedListQuery<typeof refundListQuery.filters>, config: typeof refundListQuery) {
  const plan = listPlan(config, query, [eq(refunds.paymentId, paymentId)]);
  const [rows, totals] = await db.batch([
    db.select().from(refunds).where(plan.where).orderBy(...plan.orderBy).limit(plan.limit).offset(plan.offset),
    db.select({ total: count() }).from(refunds).where(plan.where),
  ]);
  return { items: rows.map((r) => toRefund(r, digits)), total: totals[0]!.total };
}

/**
 * Refunds (part of) a completed payment. The provider refunds first, keyed by the refund's id; then
 * one batch records the refund, raises the payment's and the order's amountRefunded (the triggers
 * refuse more than was paid, so concurrent refunds cannot over-refund) and, once the order has
 * given back everything paid, moves it to `refunded`.
 */
export async function createRefund(db: Database, payment: PaymentRow, order: OrderRow, input: CreateRefundInput, actor: string, now = new Date()): Promise<Refund> {
  if (payment.status !== 'completed' && payment.status !== 'partially_refunded') {
    throw ApiError.conflict(`Payment '${payment.id}' is ${payment.status}: there is nothing to refund`);
  }
  const digits = order.minorUnits;
  const left = payment.amount - payment.amountRefunded;
  const amount = input.amount === undefined ? left : amountInMinor(input.amount, digits);
  const tooMuch = () => ApiError.conflict(`The refund is more than is left on payment '${payment.id}' (${toMajor(payment.amount - payment.amountRefunded, digits)} ${payment.currency})`, 'amount');
  if (amount > left) throw tooMuch();

  const provider = paymentProvider(payment.provider);
  if (!provider) throw new Error(`payment ${payment.id} has unknown provider ${payment.provider}`);
  const id = newId(ID_PREFIX.refund, now.getTime());
  const result = await provider.refund({ payment, amount, idempotencyKey: id });
  if (result.status !== 'completed') throw ApiError.conflict(`The provider refused the refund: ${result.failureReason ?? 'no reason given'}`);

  const ts = now.toISOString();
  const row: RefundRow = { id, paymentId: payment.id, orderId: order.id, amount, currency: payment.currency, reason: input.reason ?? null, providerReference: result.reference, createdAt: ts };
  const orderDone = REFUNDABLE_ORDER.includes(order.status) && fullyRefunded({ amountPaid: order.amountPaid, amountRefunded: order.amountRefunded + amount });
  const statusChange = { actor, note: `refunded in full (refund ${id})`, now };
  await withGuards(
    () =>
      db.batch([
        db.insert(refunds).values(row),
        db
          .update(payments)
          .set({
            amountRefunded: sql`${payments.amountRefunded} + ${amount}`,
            status: sql`CASE WHEN ${payments.amountRefunded} + ${amount} >= ${payments.amount} THEN 'refunded' ELSE 'partially_refunded' END`,
            updatedAt: ts,
          })
          .where(eq(payments.id, payment.id)),
        db.update(orders).set({ amountRefunded: sql`${orders.amountRefunded} + ${amount}`, updatedAt: ts }).where(eq(orders.id, order.id)),
        ...(orderDone ? statusChangeStatements(db, order, 'refunded', statusChange) : []),
      ] as never),
    { refund_exceeds_payment: tooMuch, order_overpaid: tooMuch },
  );
  if (!orderDone) await followUpOrderStatus(db, order.id, REFUNDABLE_ORDER, 'refunded', fullyRefunded, { actor, note: `refunded in full (refund ${id})` });
  return toRefund(row, digits);
}

