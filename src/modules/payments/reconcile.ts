import { and, asc, eq, inArray, lt } from 'drizzle-orm';
import { createDb, type Database } from '../../db/client';
import { orders, payments, refunds } from '../../db/schema';
import type { Bindings } from '../../env';
import { ApiError } from '../../lib/errors';
import { ProviderUnavailable, recordCharge, recordRefund } from '../ledger';
import { paymentProvider, refundProvider } from './providers/registry';

/**
 * The safety net of settle.ts: payments and refunds left `pending` for more than a minute (their
 * outcome not recorded: a crash, a D1 error, a lost answer, a webhook not delivered) are settled by
 * asking their provider again under the same key, which answers with the same charge or refund
 * (never a second one), and recording the answer. The minute cron runs it (src/scheduled.ts), and
 * so does every Stripe webhook (stripe-webhook.ts). A payment the customer has not confirmed yet
 * stays pending; its row is touched so the next run asks about others first.
 */

export const SETTLE_AFTER_MS = 60_000;
/** Rows asked about per run, oldest first: provider calls are slow, and the next minute takes the rest. */
export const RECONCILE_BATCH = 20;

export interface Reconciled {
  paymentsSettled: number;
  refundsSettled: number;
}

export async function reconcilePending(env: Bindings, now = new Date()): Promise<Reconciled> {
  const db = createDb(env.DB);
  const cutoff = new Date(now.getTime() - SETTLE_AFTER_MS).toISOString();
  // One row per table: D1 batches name result columns, so a join of two whole tables would mix their ids.
  const [stalePayments, staleRefunds] = await db.batch([
    db
      .select({ payment: payments, digits: orders.minorUnits, email: orders.email })
      .from(payments)
      .innerJoin(orders, eq(orders.id, payments.orderId))
      .where(and(eq(payments.status, 'pending'), lt(payments.updatedAt, cutoff)))
      .orderBy(asc(payments.updatedAt))
      .limit(RECONCILE_BATCH),
    db
      .select({ refund: refunds, digits: orders.minorUnits })
      .from(refunds)
      .innerJoin(orders, eq(orders.id, refunds.orderId))
      .where(and(eq(refunds.status, 'pending'), lt(refunds.updatedAt, cutoff)))
      .orderBy(asc(refunds.updatedAt))
      .limit(RECONCILE_BATCH),
  ]);
  const refunded = staleRefunds.length
    ? await db
        .select()
        .from(payments)
        .where(
          inArray(
            payments.id,
            staleRefunds.map((r) => r.refund.paymentId),
          ),
        )
    : [];
  const settling = { actor: 'system', env, now };
  let paymentsSettled = 0;
  for (const { payment, digits, email } of stalePayments) {
    await settleOne(db, payments, payment.id, now, async () => {
      const provider = paymentProvider(payment.provider, env);
      const result = await provider.status({ payment, digits, email });
      const recorded = await recordCharge(db, provider, payment, result, settling).catch(orderChanged);
      if (recorded?.status !== 'pending') paymentsSettled += 1;
      return recorded?.status === 'pending';
    });
  }
  let refundsSettled = 0;
  for (const { refund, digits } of staleRefunds) {
    const payment = refunded.find((p) => p.id === refund.paymentId)!;
    await settleOne(db, refunds, refund.id, now, async () => {
      const result = await refundProvider(refund, payment.provider, env, db).refund({ refund, payment, digits });
      const recorded = await recordRefund(db, refund, result, settling);
      if (recorded.status !== 'pending') refundsSettled += 1;
      return recorded.status === 'pending';
    });
  }
  return { paymentsSettled, refundsSettled };
}

/** A completed charge for an order cancelled meanwhile was returned and failed (recordCharge's 409): settled. */
function orderChanged(error: unknown) {
  if (error instanceof ApiError && error.code === 'CONFLICT') return undefined;
  throw error;
}

/**
 * Settles one row; one that stays pending (or cannot be settled now: its provider does not answer,
 * or is not set up any more) is logged and touched, so it goes to the back of the queue and one
 * row never holds up the others.
 */
async function settleOne(db: Database, table: typeof payments | typeof refunds, id: string, now: Date, settle: () => Promise<boolean>) {
  let stillPending = true;
  try {
    stillPending = await settle();
  } catch (error) {
    const expected = error instanceof ProviderUnavailable || error instanceof ApiError;
    console.error(JSON.stringify({ level: expected ? 'warn' : 'error', message: 'pending payment or refund not settled', id, error: String((error as Error)?.message ?? error) }));
  }
  if (stillPending)
    await db
      .update(table)
      .set({ updatedAt: now.toISOString() })
      .where(and(eq(table.id, id), eq(table.status, 'pending')));
}
