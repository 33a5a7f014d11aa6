import type { PromotionRow } from '../../db/schema';
import { ApiError, detailOf } from '../../lib/errors';
import { promotionOfRow } from './promotion-row';
import type { NotApplicable, Promotion } from './promotion-types';

/** The promotions a quote weighs: every active one it read (the automatic ones, and the code's, a coupon's too). */
export function promotionsOfQuote(inputs: { promotions: readonly PromotionRow[]; promotionUses: readonly { promotionId: string; n: number }[] }): Promotion[] {
  const uses = new Map(inputs.promotionUses.map((u) => [u.promotionId, u.n]));
  return inputs.promotions.filter((row) => row.active).map((row) => promotionOfRow(row, uses.get(row.id) ?? 0));
}

/** The answer for a code that does not apply: a coupon's in its own words (409 CONFLICT, as always), a promotion code's as COUPON_NOT_APPLICABLE. */
export function notApplicableError(failure: NotApplicable, isCoupon: boolean): ApiError {
  const problem = failure.message.slice(`Code '${failure.code}' `.length);
  if (isCoupon) return ApiError.conflict(`Coupon '${failure.code}' ${problem}`, 'couponCode');
  const detail = { ...detailOf({ field: 'couponCode', problem: failure.message, code: 'conflict' }), condition: failure.condition };
  return new ApiError('COUPON_NOT_APPLICABLE', failure.message, { details: [detail] });
}
