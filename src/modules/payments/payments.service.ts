import { and, count, eq, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type OrderRow, orders, type PaymentRow, payments } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { ID_PREFIX, newId } from '../../lib/ids';
import { insertWhere } from '../../lib/insert-where';
import { toMajor } from '../../lib/money';
import { type AnyFilters, type ListQueryConfig, listPlan, type ParsedListQuery } from '../../lib/query';
import {
  amountInMinor,
  type GiftCardSettings,
  owed,
  paymentFits,
  type PaymentProvider,
  ProviderUnavailable,
  recordCharge,
  refuseClosed,
  refuseMoreThanOwed,
  refuseUnfitPayment,
  type SettlingCharge,
} from '../ledger';
import type { CreatePaymentInput, Payment } from './payments.schemas';
import { paymentProvider } from './providers/registry';
import type { StripeSettings } from './providers/stripe';

import { findOrder } from '../orders';

/** The order a path names (id or number), within the caller's reach. */
export { findOrder };

export function toPayment({ providerInput: _input, requestKey: _key, ...row }: PaymentRow, digits: number): Payment {
  return { ...row, amount: toMajor(row.amount, digits), amountRefunded: toMajor(row.amountRefunded, digits) };
}

const paymentWithDigits = { payment: payments, digits: orders.minorUnits };

/** One page of payments (within `reach`) and their total, counted in SQL, in one round trip. */
export async function listPayments<F extends AnyFilters>(db: Database, query: ParsedListQuery<F>, config: ListQueryConfig<F>, conditions: (SQL | undefined)[]) {
  const plan = listPlan(config, query, conditions);
  const [rows, totals] = await db.batch([
    db
      .select(paymentWithDigits)
      .from(payments)
      .innerJoin(orders, eq(orders.id, payments.orderId))
      .where(plan.where)
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    db.select({ total: count() }).from(payments).where(plan.matching),
  ]);
  return { items: rows.map((r) => toPayment(r.payment, r.digits)), total: totals[0]!.total };
}

/** A payment within `reach`, with its order's currency digits; 404 otherwise. */
export async function findPayment(db: Database, id: string, reach: SQL | undefined) {
  const [row] = await db
    .select({ ...paymentWithDigits, order: orders })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .where(and(eq(payments.id, id), reach));
  if (!row) throw ApiError.notFound('Payment', id);
  return row;
}

export interface PaymentAttempt {
  payment: Payment;
  /** For a payment the customer completes in the browser (Stripe.js): the secret it confirms with. */
  clientSecret: string | null;
}

interface Requested {
  actor: string;
  /** The caller and its Idempotency-Key, hashed (src/middleware/idempotency.ts): a retry resumes the payment it started. */
  requestKey?: string | null;
  now?: Date;
}

/**
 * Pays (part of) an order, never losing or doubling money whatever step fails (settle.ts): (1) a
 * `pending` payment row is inserted only if the order is open and the amount fits in what is
 * neither paid nor taken by other pending payments (checked inside the insert, so concurrent
 * requests cannot ask a provider for more than is owed); (2) the provider charges, keyed by the
 * payment id; (3) recordCharge records the outcome. A retry with the same Idempotency-Key finds its
 * pending row and resumes at (2), which the provider answers as before; for `stripe`, a payment
 * already open on the order is returned (with its client secret) instead of a second PaymentIntent.
 */
export async function createPayment(
  db: Database,
  env: StripeSettings & GiftCardSettings,
  order: OrderRow,
  input: CreatePaymentInput,
  { actor, requestKey = null, now = new Date() }: Requested,
): Promise<PaymentAttempt> {
  const provider = paymentProvider(input.provider, env);
  // Its spend is written with the payment (src/modules/ledger/gift-card-payment.ts), which only a code opens.
  if (provider.name === 'gift_card') throw ApiError.validation([{ field: 'code', problem: 'is required to pay with a gift card', code: 'required' }]);
  if (input.code !== undefined) throw ApiError.validation([{ field: 'code', problem: 'is for gift card payments' }]);
  if (input.reference !== undefined && provider.name !== 'manual')
    throw ApiError.validation([{ field: 'reference', problem: 'is for manual payments; the provider sets its own' }]);
  const amount = input.amount === undefined ? undefined : amountInMinor(input.amount, order.minorUnits);
  const resumed =
    (requestKey && (await db.query.payments.findFirst({ where: eq(payments.requestKey, requestKey) }))) ||
    (provider.name === 'stripe' ? await openPayment(db, order.id, provider.name) : undefined);
  if (resumed) {
    if (resumed.orderId !== order.id || resumed.provider !== provider.name || (amount !== undefined && amount !== resumed.amount)) {
      throw ApiError.conflict(
        `Payment '${resumed.id}' is already open on order '${resumed.orderId}' for ${toMajor(resumed.amount, order.minorUnits)} ${resumed.currency}; it is completed or cancelled first`,
      );
    }
    return attempt(db, provider, resumed, order, { actor, env }, 'status');
  }

  refuseClosed(order);
  provider.check?.(order);
  const due = await owed(db, order);
  const charged = amount ?? due;
  refuseMoreThanOwed(order, charged, due);
  const ts = now.toISOString();
  const row: PaymentRow = {
    id: newId(ID_PREFIX.payment, now.getTime()),
    orderId: order.id,
    provider: provider.name,
    providerReference: provider.name === 'manual' ? (input.reference ?? null) : null,
    status: 'pending',
    amount: charged,
    amountRefunded: 0,
    currency: order.currency,
    failureReason: null,
    providerInput: input.details ?? {},
    requestKey,
    disputeStatus: null,
    createdAt: ts,
    updatedAt: ts,
  };
  const inserted = await insertWhere(db, payments, row, paymentFits(order.id, charged)).catch((error) => {
    if (/UNIQUE constraint failed: payments\.request_key/.test(String(error?.cause ?? error))) throw ApiError.conflict('A request with this Idempotency-Key is in progress');
    throw error;
  });
  if (inserted.meta.changes === 0) await refuseUnfitPayment(db, order, charged);
  return attempt(db, provider, row, order, { actor, env }, 'charge');
}

/** The oldest pending payment of the order with this provider (an open PaymentIntent), if any. */
function openPayment(db: Database, orderId: string, provider: string) {
  return db.query.payments.findFirst({
    where: and(eq(payments.orderId, orderId), eq(payments.provider, provider), eq(payments.status, 'pending')),
    orderBy: (p, { asc }) => [asc(p.createdAt)],
  });
}

/** Asks the provider (a new charge, or the state of one started before) and records its answer. */
async function attempt(db: Database, provider: PaymentProvider, payment: PaymentRow, order: OrderRow, settling: SettlingCharge, ask: 'charge' | 'status'): Promise<PaymentAttempt> {
  if (payment.status !== 'pending') return { payment: toPayment(payment, order.minorUnits), clientSecret: null };
  const request = { payment, digits: order.minorUnits, email: order.email };
  const result = await providerCall(() => provider[ask](request));
  const recorded = await recordCharge(db, provider, payment, result, settling);
  return { payment: toPayment(recorded, order.minorUnits), clientSecret: recorded.status === 'pending' ? (result.clientSecret ?? null) : null };
}

/** A provider that did not answer is a 502: the row stays pending, and a retry with the same Idempotency-Key resumes it. */
export async function providerCall<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ProviderUnavailable)
      throw new ApiError('PROVIDER_ERROR', `${error.message}. Nothing was lost: retry with the same Idempotency-Key, or the store settles it within minutes.`);
    throw error;
  }
}
