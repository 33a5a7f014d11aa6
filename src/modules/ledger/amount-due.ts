import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type OrderRow, orders, payments } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { toMajor } from '../../lib/money';

/**
 * The amount due, defined once: what is still to pay of `total` (minor units) once `amountPaid` is
 * paid and `pending` is being taken by payments in progress, never below 0. An order shows it as
 * `amountDue` (total - amountPaid), a payment defaults to it and may not exceed it (owed, with its
 * pending payments), a cart's applied gift cards pay it down in turn, an exchange's customer pays it
 * for the new order once the returned value is credited. Paid in full is nothing due.
 */
export function amountDue(order: Pick<OrderRow, 'total' | 'amountPaid'>, pending = 0): number {
  return Math.max(0, order.total - order.amountPaid - pending);
}

/** An order is paid in full once nothing is due: at once for a total of 0. */
export const paidInFull = (order: Pick<OrderRow, 'amountPaid' | 'total'>) => amountDue(order) === 0;

const CLOSED = ['cancelled', 'refunded'] as const;
const pendingSum = (orderId: string) =>
  sql<number>`(SELECT coalesce(sum(${payments.amount}), 0) FROM ${payments} WHERE ${payments.orderId} = ${orderId} AND ${payments.status} = 'pending')`;

/** What is owed now: the amount due less what pending payments are already taking. */
export async function owed(db: Database, order: OrderRow): Promise<number> {
  const [row] = await db
    .select({ pending: pendingSum(order.id) })
    .from(orders)
    .where(eq(orders.id, order.id));
  return amountDue(order, row?.pending ?? 0);
}

export function refuseClosed(order: OrderRow) {
  if ((CLOSED as readonly string[]).includes(order.status)) {
    throw ApiError.conflict(`Order '${order.id}' is ${order.status}: it takes no more payments`, 'orderId');
  }
}

export function refuseMoreThanOwed(order: OrderRow, amount: number, due: number) {
  if (due <= 0) throw ApiError.conflict(`Nothing is owed on order '${order.id}'`, 'amount');
  if (amount > due) {
    throw ApiError.conflict(`The amount is more than is owed on order '${order.id}' (${toMajor(due, order.minorUnits)} ${order.currency})`, 'amount');
  }
}

/** Holds (in the statement inserting a payment of `amount`) while the order is open and the amount fits in what is neither paid nor pending. */
export const paymentFits = (orderId: string, amount: number) =>
  sql`EXISTS (SELECT 1 FROM ${orders} WHERE ${orders.id} = ${orderId} AND ${orders.status} NOT IN ('cancelled', 'refunded')
    AND ${orders.amountPaid} + ${pendingSum(orderId)} + ${amount} <= ${orders.total})`;

/** Why a payment paymentFits refused was refused, read again: closed, more than owed, or (a race) changed meanwhile. */
export async function refuseUnfitPayment(db: Database, order: OrderRow, amount: number): Promise<never> {
  const [fresh] = await db.select().from(orders).where(eq(orders.id, order.id)).limit(1);
  if (!fresh) throw ApiError.notFound('Order', order.id);
  refuseClosed(fresh);
  refuseMoreThanOwed(fresh, amount, await owed(db, fresh));
  throw ApiError.conflict(`Order '${order.id}' changed while paying; try again`);
}
