import type { CouponRow, PromotionRow } from '../../db/schema';
import { ApiError, detailOf } from '../../lib/errors';
import { promotionOfCoupon } from '../promotions/coupon-promotion';
import { promotionOfRow } from '../promotions/promotion-row';
import type { NotApplicable, Promotion } from '../promotions/promotion-types';

/**
 * The promotions a quote weighs: every active automatic one, the promotion the code names, or the
 * coupon it names as the code promotion it becomes (a coupon wins over a promotion of the same code).
 */
export function promotionsOfQuote(
  inputs: { promotions: readonly PromotionRow[]; promotionUses: readonly { promotionId: string; n: number }[]; usesByCustomer: number },
  code: string,
  coupon: CouponRow | null,
): Promotion[] {
  const uses = new Map(inputs.promotionUses.map((u) => [u.promotionId, u.n]));
  const rows = inputs.promotions.filter((row) => row.code === null || (row.code === code && !coupon));
  return [...rows.map((row) => promotionOfRow(row, uses.get(row.id) ?? 0)), ...(coupon ? [promotionOfCoupon(coupon, inputs.usesByCustomer)] : [])];
}

/** The answer for a code that does not apply: a coupon's in its own words (409 CONFLICT, as always), a promotion code's as COUPON_NOT_APPLICABLE. */
export function notApplicableError(failure: NotApplicable, isCoupon: boolean): ApiError {
  const problem = failure.message.slice(`Code '${failure.code}' `.length);
  if (isCoupon) return ApiError.conflict(`Coupon '${failure.code}' ${problem}`, 'couponCode');
  const detail = { ...detailOf({ field: 'couponCode', problem: failure.message, code: 'conflict' }), condition: failure.condition };
  return new ApiError('COUPON_NOT_APPLICABLE', failure.message, { details: [detail] });
}
