import { and, eq, gt, ne, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type OrderLineRow, type OrderRow, type OrderStatus, orders, promotionUsages, promotions } from '../../db/schema';
import { withGuards } from '../../lib/db-guards';
import { ApiError } from '../../lib/errors';
import { assertTransition, cancellationRevocations, spentCardOfOrder, type StatusChange, statusChangeStatements } from '../ledger';
import { stockChangeStatements } from '../inventory';

/**
 * Status changes of an order from the orders API, each one D1 batch. Every batch starts with a
 * compare-and-set on what was read, so a change decided on a stale read cannot commit: another
 * request that moved the order (or, for a cancellation, took money) meanwhile makes it abort whole.
 */

export interface Preconditions {
  /** Only a customer's own pending order may be cancelled by the customer. */
  customer?: boolean;
}

/** 409 unless the order may be cancelled now (by a customer, when `customer`). */
export function assertCancellable(order: OrderRow, preconditions: Preconditions = {}): void {
  assertTransition(order.status, 'cancelled');
  if (preconditions.customer && order.status !== 'pending') {
    throw ApiError.conflict(`Only a pending order can be cancelled by its customer; this one is '${order.status}': contact the store`, 'status');
  }
  if (order.amountPaid > order.amountRefunded) {
    throw ApiError.conflict('This order has been paid: refund the payments first, then cancel it', 'status');
  }
}

/**
 * Aborts the batch when the order is no longer in the status it was read in (or, when `unpaid`,
 * has money on it now): setting the status to itself trips `orders_status_guard`, which refuses
 * every move the state machine does not allow, staying put included.
 */
function unchangedSince(db: Database, order: OrderRow, unpaid: boolean) {
  return db
    .update(orders)
    .set({ status: sql`${orders.status}` })
    .where(and(eq(orders.id, order.id), or(ne(orders.status, order.status), unpaid ? gt(orders.amountPaid, orders.amountRefunded) : undefined)));
}

/**
 * Cancelling: the status change (`order.updated` and `order.cancelled`), the stock of every line
 * not yet shipped put back (reason `cancellation`), the uses of its promotions (a coupon among them) given back, and
 * what the gift cards it bought still hold of their value taken back (409 when one was spent). Shared by
 * `POST /orders/{id}/cancel`, `PATCH /orders/{id}` with `status: cancelled` and the expiry of unpaid orders.
 */
export function cancellationStatements(db: Database, order: OrderRow, lines: OrderLineRow[], change: StatusChange & Preconditions) {
  assertCancellable(order, change);
  const now = change.now ?? new Date();
  return [
    unchangedSince(db, order, true),
    ...statusChangeStatements(db, order, 'cancelled', { ...change, now }),
    ...lines
      .filter((line) => line.quantity > line.quantityShipped)
      .flatMap((line) =>
        stockChangeStatements(db, { variantId: line.variantId, delta: line.quantity - line.quantityShipped, reason: 'cancellation', orderId: order.id, actor: change.actor }, now),
      ),
    // Given back only when this order's use is still recorded, so the count never drops twice.
    db
      .update(promotions)
      .set({ timesUsed: sql`${promotions.timesUsed} - 1` })
      .where(sql`${promotions.id} IN (SELECT ${promotionUsages.promotionId} FROM ${promotionUsages} WHERE ${promotionUsages.orderId} = ${order.id})`),
    db.delete(promotionUsages).where(eq(promotionUsages.orderId, order.id)),
    // A paid order's gift cards (issued when it was paid in full) are taken back with it.
    ...(order.status === 'pending' ? [] : cancellationRevocations(db, order, change.actor, now)),
  ];
}

/**
 * Cancels an order as read for the change (with all its lines): one batch, 409 when it moved on or
 * took money meanwhile. The cancel action and the expiry of unpaid orders (order-expiry.ts) run it.
 */
export async function runCancellation(db: Database, order: OrderRow, lines: OrderLineRow[], change: StatusChange & Preconditions): Promise<void> {
  await runStatusChange(db, order, cancellationStatements(db, order, lines, change), (current) => assertCancellable(current, change));
}

/** Any other move of the state machine: the change with its history row and `order.updated`. */
export function statusStatements(db: Database, order: OrderRow, to: OrderStatus, change: StatusChange) {
  assertTransition(order.status, to);
  return [unchangedSince(db, order, false), ...statusChangeStatements(db, order, to, change)];
}

/**
 * Runs a status change batch. When the compare-and-set trips, the order is read again and the
 * same rules give the 409 that applies to it now.
 */
export async function runStatusChange(db: Database, order: OrderRow, statements: unknown[], recheck: (now: OrderRow) => void): Promise<void> {
  await withGuards(() => db.batch(statements as never), {
    insufficient_gift_card_balance: () => spentCardOfOrder(db, order),
    order_transition: async () => {
      const [current] = await db.select().from(orders).where(eq(orders.id, order.id));
      try {
        if (current) recheck(current);
      } catch (error) {
        if (error instanceof ApiError) return error;
        throw error;
      }
      return ApiError.conflict('The order changed while this request ran; read it again and retry', 'status');
    },
  });
}
