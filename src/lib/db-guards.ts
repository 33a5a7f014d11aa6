import { ApiError } from './errors';

/**
 * Invariants the database enforces with triggers (migrations/0005_commerce_rules.sql, and the
 * `write_guards` table of 0021 for assertions a batch makes about earlier reads): a batch that
 * would break one aborts as a whole with `guard:<name>`. Each maps to a 409 CONFLICT; callers may
 * give a more precise error (which variant ran out) by naming the guard.
 */
export const GUARDS = {
  insufficient_stock: 'Not enough stock for this quantity',
  coupon_usage_limit: 'This coupon has been used up',
  coupon_customer_limit: 'This coupon has already been used the maximum number of times by this customer',
  promotion_usage_limit: 'This promotion has been used up',
  promotion_customer_limit: 'This promotion has already been used the maximum number of times by this customer',
  order_overpaid: 'The amount is more than is owed (or refundable) on this order',
  refund_exceeds_payment: 'The refund is more than is left to refund on this payment',
  overshipped: 'More would be shipped (or delivered) than was ordered',
  order_transition: 'The order is not in a state that allows this change',
  cart_converted: 'This cart has already been checked out',
  overreturned: 'More units would be returned than were bought',
  overrefunded_line: 'More units would be refunded than were bought',
  insufficient_store_credit: 'Not enough store credit for this amount',
  insufficient_gift_card_balance: 'Not enough left on this gift card for this amount',
  // write_guards rows (migrations/0021_order_guards.sql): a read done earlier no longer holds. Their
  // writers answer these themselves (read again, or answer the request again); the messages are fallbacks.
  stale_quote: 'Prices or settings changed while this was being written; try again',
  stale_credential: 'The credential changed while this was being written; try again',
  payment_settled: 'The payment was settled by another request',
  refund_settled: 'The refund was settled by another request',
  return_settled: 'The return was refunded or exchanged by another request',
} as const;
export type GuardName = keyof typeof GUARDS;

/** The guard a D1 error comes from, or null for any other error. */
export function violatedGuard(error: unknown): GuardName | null {
  const text = String((error as Error)?.message ?? error) + String((error as { cause?: unknown })?.cause ?? '');
  const match = /guard:([a-z_]+)/.exec(text);
  return match && match[1]! in GUARDS ? (match[1] as GuardName) : null;
}

/** Runs a write; a guard it trips becomes 409 CONFLICT (`errors[name]()` when given, else the guard's message). */
export async function withGuards<T>(write: () => Promise<T>, errors: Partial<Record<GuardName, () => ApiError | Promise<ApiError>>> = {}): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const guard = violatedGuard(error);
    if (!guard) throw error;
    throw (await errors[guard]?.()) ?? ApiError.conflict(GUARDS[guard]);
  }
}
