import { and, asc, eq, gt, inArray, lt, lte } from 'drizzle-orm';
import { createDb, type Database } from '../../db/client';
import { type OrderRow, orderLines, orders, type PaymentRow, payments } from '../../db/schema';
import type { Bindings } from '../../env';
import { config } from '../../config';
import { ApiError } from '../../lib/errors';
import { groupBy } from '../../lib/group-by';
import { paymentProvider } from './providers/registry';
import type { StripeSettings } from './providers/stripe';
import { type GiftCardSettings, recordCharge, settleNothingOwed } from '../ledger';

import { runCancellation } from '../orders';

/**
 * A placed order holds its stock and its coupon use until it is paid or cancelled, so one nobody
 * pays must not hold them for ever. The minute cron (src/scheduled.ts) cancels `pending` orders
 * with no money on them once ORDER_PAYMENT_TTL_MINUTES have passed since they were placed, through
 * the cancel action's own batch (runCancellation): stock and coupon use back, a history row and
 * `order.updated` + `order.cancelled`, with the reason `payment_expired`, by actor `system`. That
 * batch holds only if the order is still pending and unpaid when it commits, so a payment that
 * lands after the read wins and the cancellation aborts whole. The events go out with the next
 * minute's leftover sweep.
 *
 * A payment still open on the order (a Stripe PaymentIntent never confirmed) is cancelled at its
 * provider first; if it completed meanwhile, the order is paid and stays.
 *
 * An order with nothing to pay (total 0) is paid, as its paymentStatus says, and was settled when
 * it was placed (place-order.ts), in a batch after the order's own: one a crash left `pending`
 * between the two is settled here, a minute on (settleForgottenFreeOrders). One partly paid is left
 * to the staff (it must be refunded before it can be cancelled).
 */

export const PAYMENT_EXPIRED = 'payment_expired';
/** Orders cancelled per cron run, oldest first; the rest wait for the next minute. */
export const EXPIRY_BATCH = 100;

/** Pending, unpaid and placed before `cutoff`; oldest first, that is a walk along orders_status_created_idx. */
const unpaidBefore = (cutoff: string) => and(eq(orders.status, 'pending'), lt(orders.createdAt, cutoff), lte(orders.amountPaid, orders.amountRefunded), gt(orders.total, 0));
const oldestFirst = [asc(orders.createdAt), asc(orders.id)];

/** The oldest unpaid pending orders placed before `cutoff`, at most EXPIRY_BATCH of them. */
export function overdueOrders(db: Database, cutoff: string) {
  return db
    .select()
    .from(orders)
    .where(unpaidBefore(cutoff))
    .orderBy(...oldestFirst)
    .limit(EXPIRY_BATCH);
}

/** Those orders, all their lines and their pending payments, in one round trip. */
async function readOverdue(db: Database, cutoff: string) {
  const ids = db
    .select({ id: orders.id })
    .from(orders)
    .where(unpaidBefore(cutoff))
    .orderBy(...oldestFirst)
    .limit(EXPIRY_BATCH);
  const [overdue, lines, open] = await db.batch([
    overdueOrders(db, cutoff),
    db.select().from(orderLines).where(inArray(orderLines.orderId, ids)).orderBy(asc(orderLines.id)),
    db
      .select()
      .from(payments)
      .where(and(inArray(payments.orderId, ids), eq(payments.status, 'pending'))),
  ]);
  return { overdue, linesByOrder: groupBy(lines, (line) => line.orderId), openByOrder: groupBy(open, (payment) => payment.orderId) };
}

/**
 * Cancels the order's open payments at their providers (a PaymentIntent the customer never
 * confirmed) and records the answers; true when none is left open. One that completed meanwhile is
 * recorded as paid, and the order is not expired; one whose provider does not answer waits for the
 * next run.
 */
async function closeOpenPayments(db: Database, env: StripeSettings & GiftCardSettings, order: OrderRow, open: PaymentRow[], now: Date): Promise<boolean> {
  for (const payment of open) {
    try {
      const provider = paymentProvider(payment.provider, env);
      const result = await provider.cancel({ payment, digits: order.minorUnits, email: order.email });
      const recorded = await recordCharge(db, provider, payment, result, { actor: 'system', env, now });
      if (recorded.status !== 'failed') return false;
    } catch (error) {
      console.error(
        JSON.stringify({
          level: 'warn',
          message: 'open payment of an expired order not cancelled',
          orderId: order.id,
          paymentId: payment.id,
          error: String((error as Error)?.message ?? error),
        }),
      );
      return false;
    }
  }
  return true;
}

/** Pending orders with nothing to pay, placed over a minute before `now`: their settling batch never ran (placeOrder). */
export async function settleForgottenFreeOrders(db: Database, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - 60_000).toISOString();
  const forgotten = await db
    .select()
    .from(orders)
    .where(and(eq(orders.status, 'pending'), lt(orders.createdAt, cutoff), eq(orders.total, 0)))
    .orderBy(...oldestFirst)
    .limit(EXPIRY_BATCH);
  for (const order of forgotten) await settleNothingOwed(db, order, { actor: 'system', now });
  return forgotten.length;
}

/** Cancels the unpaid orders whose time to pay is over at `now`; returns how many it cancelled. */
export async function expireUnpaidOrders(env: Pick<Bindings, 'DB' | 'ORDER_PAYMENT_TTL_MINUTES' | 'JWT_SECRET'> & StripeSettings, now = new Date()): Promise<number> {
  const db = createDb(env.DB);
  await settleForgottenFreeOrders(db, now);
  const ttlMinutes = config(env).ORDER_PAYMENT_TTL_MINUTES;
  const { overdue, linesByOrder, openByOrder } = await readOverdue(db, new Date(now.getTime() - ttlMinutes * 60_000).toISOString());
  let cancelled = 0;
  for (const order of overdue) {
    const open = openByOrder.get(order.id) ?? [];
    if (open.length && !(await closeOpenPayments(db, env, order, open, now))) continue;
    try {
      await runCancellation(db, order, linesByOrder.get(order.id) ?? [], { actor: 'system', reason: PAYMENT_EXPIRED, now });
      cancelled += 1;
    } catch (error) {
      // Paid, cancelled or moved on since it was read: it is no longer ours to expire.
      if (!(error instanceof ApiError && error.code === 'CONFLICT')) throw error;
    }
  }
  return cancelled;
}
