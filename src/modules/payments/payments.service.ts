import { and, count, eq, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type OrderRow, orders, type PaymentRow, payments } from '../../db/schema';
import { violatedGuard } from '../../lib/db-guards';
import { ApiError } from '../../lib/errors';
import { outboxEvent } from '../../lib/events';
import { ID_PREFIX, newId } from '../../lib/ids';
import { insertWhere } from '../../lib/insert-where';
import { toMajor } from '../../lib/money';
import { type FilterSpec, type ListQueryConfig, listPlan, type ParsedListQuery } from '../../lib/query';
import { statusChangeStatements } from '../orders/order-status';
import { amountInMinor } from './amounts';
import { followUpOrderStatus } from './order-follow-up';
import type { CreatePaymentInput, Payment } from './payments.schemas';
import { paymentProvider } from './providers/registry';

export function toPayment(row: PaymentRow, digits: number): Payment {
  return { ...row, amount: toMajor(row.amount, digits), amountRefunded: toMajor(row.amountRefunded, digits) };
}

const paymentWithDigits = { payment: payments, digits: orders.minorUnits };

/** One page of payments (within `reach`) and their total, counted in SQL, in one round trip. */
export async function listPayments<F extends Record<string, FilterSpec<any>>>(
  db: Database,
  query: ParsedListQuery<F>,
  config: ListQueryConfig<F>,
  conditions: (SQL | undefined)[],
) {
  const plan = listPlan(config, query, conditions);
  const [rows, totals] = await db.batch([
    db.select(paymentWithDigits).from(payments).innerJoin(orders, eq(orders.id, payments.orderId)).where(plan.where).orderBy(...plan.orderBy).limit(plan.limit).offset(plan.offset),
    db.select({ total: count() }).from(payments).where(plan.where),
  ]);
  return { items: rows.map((r) => toPayment(r.payment, r.digits)), total: totals[0]!.total };
}

/** A payment within `reach`, with its order's currency digits; 404 otherwise. */
export async function findPayment(db: Database, id: string, reach: SQL | undefined) {
  const [row] = await db.select({ ...paymentWithDigits, order: orders }).from(payments).innerJoin(orders, eq(orders.id, payments.orderId)).where(and(eq(payments.id, id), reach));
  if (!row) throw ApiError.notFound('Payment', id);
  return row;
}

/** An order within `reach` (a condition on orders.id), or 404. */
export async function findOrder(db: Database, id: string, reach: SQL | undefined): Promise<OrderRow> {
  const order = await db.query.orders.findFirst({ where: and(eq(orders.id, id), reach) });
  if (!order) throw ApiError.notFound('Order', id);
  return order;
}

const CLOSED = ['cancelled', 'refunded'] as const;
const pendingSum = (orderId: string) =>
  sql<number>`(SELECT coalesce(sum(${payments.amount}), 0) FROM ${payments} WHERE ${payments.orderId} = ${orderId} AND ${payments.status} = 'pending')`;

/** What is owed: the total less what is paid and what pending payments are already taking. */
async function owed(db: Database, order: OrderRow): Promise<number> {
  const [row] = await db.select({ pending: pendingSum(order.id) }).from(orders).where(eq(orders.id, order.id));
  return order.total - order.amountPaid - (row?.pending ?? 0);
}

function refuseClosed(order: OrderRow) {
  if ((CLOSED as readonly string[]).includes(order.status)) {
    throw ApiError.conflict(`Order '${order.id}' is ${order.status}: it takes no more payments`, 'orderId');
  }
}

function refuseMoreThanOwed(order: OrderRow, amount: number, due: number) {
  if (due <= 0) throw ApiError.conflict(`Nothing is owed on order '${order.id}'`, 'amount');
  if (amount > due) {
    throw ApiError.conflict(`The amount is more than is owed on order '${order.id}' (${toMajor(due, order.minorUnits)} ${order.currency})`, 'amount');
  }
}

/**
 * Charges an order in three steps, so that a provider is never asked for more than is owed, even by
 * concurrent requests: (1) a `pending` payment row is inserted only if the order is open and the
 * amount fits in what is neither paid nor taken by other pending payments (checked inside the
 * insert); (2) the provider charges, keyed by the payment id; (3) one batch records the outcome:
 * for a completed charge the payment, the order's amountPaid, `payment.completed` and, once the
 * order is paid in full while `pending`, its move to `processing`.
 */
export async function createPayment(db: Database, order: OrderRow, input: CreatePaymentInput, actor: string, now = new Date()): Promise<Payment> {
  const provider = paymentProvider(input.provider);
  if (!provider) throw ApiError.validation([{ field: 'provider', message: `unknown provider '${input.provider}'` }]);
  refuseClosed(order);
  const due = await owed(db, order);
  const amount = input.amount === undefined ? due : amountInMinor(input.amount, order.minorUnits);
  refuseMoreThanOwed(order, amount, due);

  const ts = now.toISOString();
  const row: PaymentRow = {
    id: newId(ID_PREFIX.payment, now.getTime()),
    orderId: order.id,
    provider: provider.name,
    providerReference: null,
    status: 'pending',
    amount,
    amountRefunded: 0,
    currency: order.currency,
    failureReason: null,
    createdAt: ts,
    updatedAt: ts,
  };
  const fits = sql`EXISTS (SELECT 1 FROM ${orders} WHERE ${orders.id} = ${order.id} AND ${orders.status} NOT IN ('cancelled', 'refunded')
    AND ${orders.amountPaid} + ${pendingSum(order.id)} + ${amount} <= ${orders.total})`;
  const inserted = await insertWhere(db, payments, row, fits);
  if (inserted.meta.changes === 0) {
    const fresh = await findOrder(db, order.id, undefined);
    refuseClosed(fresh);
    refuseMoreThanOwed(fresh, amount, await owed(db, fresh));
    throw ApiError.conflict(`Order '${order.id}' changed while paying; try again`);
  }

  const result = await provider.charge({ amount, currency: order.currency, orderId: order.id, idempotencyKey: row.id, reference: input.reference ?? null, details: input.details ?? {} });
  const doneAt = new Date();
  const outcome = { providerReference: result.reference, failureReason: result.failureReason, updatedAt: doneAt.toISOString() };
  const setPayment = (status: PaymentRow['status']) => db.update(payments).set({ ...outcome, status }).where(and(eq(payments.id, row.id), eq(payments.status, 'pending')));

  if (result.status !== 'completed') {
    await setPayment(result.status);
    return toPayment({ ...row, ...outcome, status: result.status }, order.minorUnits);
  }

  const paidInFull = order.status === 'pending' && order.amountPaid + amount >= order.total;
  const statusChange = { actor, note: `paid in full by payment ${row.id}`, now: doneAt };
  try {
    await db.batch([
      setPayment('completed'),
      db.update(orders).set({ amountPaid: sql`${orders.amountPaid} + ${amount}`, updatedAt: outcome.updatedAt }).where(eq(orders.id, order.id)),
      outboxEvent(db, 'payment.completed', { paymentId: row.id, orderId: order.id, amount: toMajor(amount, order.minorUnits), currency: order.currency }, doneAt),
      ...(paidInFull ? statusChangeStatements(db, order, 'processing', statusChange) : []),
    ] as never);
  } catch (error) {
    if (!violatedGuard(error)) throw error;
    // The order moved (a cancellation) between the charge and its recording: give the money back.
    await provider.refund({ payment: { ...row, status: 'completed' }, amount, idempotencyKey: `${row.id}_void` });
    await db
      .update(payments)
      .set({ ...outcome, status: 'failed', failureReason: 'The order changed while the charge ran; the charge was returned' })
      .where(and(eq(payments.id, row.id), eq(payments.status, 'pending')));
    throw ApiError.conflict(`Order '${order.id}' changed while paying; the charge was returned`);
  }
  if (!paidInFull) {
    await followUpOrderStatus(db, order.id, ['pending'], 'processing', (o) => o.amountPaid >= o.total, { actor, note: `paid in full by payment ${row.id}` });
  }
  return toPayment({ ...row, ...outcome, status: 'completed' }, order.minorUnits);
}
