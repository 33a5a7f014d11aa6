import type { CouponRow } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { toMajor } from '../../lib/money';
import { inCurrency, ownCouponAmounts, type PricingContext } from '../../lib/pricing';

/**
 * Whether a coupon may be used now, for this customer and these lines, and if not why: the one
 * place carts (when a code is applied, and again at every recalculation) and orders (at placement)
 * ask. The usage limits are checked here for a clear message and enforced again by triggers in the
 * order's batch, so concurrent orders cannot overuse a coupon.
 */

export interface CouponUse {
  now: Date;
  /** Orders of this customer (or guest email) that already used the coupon. */
  usesByCustomer: number;
  /** Cart or order subtotal, in minor units of the pricing currency. */
  subtotal: number;
  /** Subtotal of the lines the coupon applies to, in the same units. */
  eligibleSubtotal: number;
}

/** Why the coupon cannot be used, in words that finish "Coupon 'CODE' ...", or null when it can. */
export function couponProblem(coupon: CouponRow, use: CouponUse, pricing: Pick<PricingContext, 'defaultMinorUnits' | 'currency'>): string | null {
  const now = use.now.toISOString();
  if (!coupon.active) return 'is not active';
  if (coupon.startsAt && now < coupon.startsAt) return `is not valid before ${coupon.startsAt}`;
  if (coupon.endsAt && now >= coupon.endsAt) return `expired at ${coupon.endsAt}`;
  if (coupon.usageLimit !== null && coupon.timesUsed >= coupon.usageLimit) return 'has been used up';
  if (coupon.usageLimitPerCustomer !== null && use.usesByCustomer >= coupon.usageLimitPerCustomer) {
    return `has already been used ${use.usesByCustomer} time(s) by this customer, the most allowed`;
  }
  if (use.eligibleSubtotal === 0) return 'does not apply to any item';
  // The shop's own minimum in this currency, else the default one converted.
  const minimum = ownCouponAmounts(coupon, pricing)?.minSubtotal ?? (coupon.minSubtotal === null ? null : inCurrency(coupon.minSubtotal, pricing));
  if (minimum !== null && use.subtotal < minimum) return `needs a subtotal of at least ${toMajor(minimum, pricing.currency.minorUnits)} ${pricing.currency.code}`;
  return null;
}

/** 409 CONFLICT naming why, on the `couponCode` field, when the coupon cannot be used. */
export function assertCouponUsable(coupon: CouponRow, use: CouponUse, pricing: Pick<PricingContext, 'defaultMinorUnits' | 'currency'>): void {
  const problem = couponProblem(coupon, use, pricing);
  if (problem) throw ApiError.conflict(`Coupon '${coupon.code}' ${problem}`, 'couponCode');
}
