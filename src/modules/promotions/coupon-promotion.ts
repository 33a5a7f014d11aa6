import type { CouponRow } from '../../db/schema';
import type { Promotion } from './promotion-types';

type CouponFields = Pick<
  CouponRow,
  'id' | 'code' | 'type' | 'value' | 'minSubtotal' | 'currencyAmounts' | 'startsAt' | 'endsAt' | 'usageLimit' | 'usageLimitPerCustomer' | 'timesUsed' | 'productIds' | 'categoryIds'
>;

const noProducts = { productIds: [], categoryIds: [], brandIds: [] };

/**
 * A coupon as the code promotion it becomes: it prices every cart as src/lib/pricing.ts prices it
 * with the coupon (test/commerce/promotions.coupons.node.test.ts). A coupon is one code a cart holds
 * alone, so it combines with automatic promotions and not with other codes.
 */
export function promotionOfCoupon(coupon: CouponFields, usesByCustomer: number): Promotion {
  return {
    id: coupon.id,
    name: coupon.code,
    code: coupon.code,
    type: coupon.type,
    value: coupon.value,
    currencyAmounts: coupon.currencyAmounts,
    target: 'items',
    buyXGetY: null,
    freeShipping: null,
    conditions: {
      minSubtotal: coupon.minSubtotal,
      minQuantity: null,
      include: { productIds: coupon.productIds, categoryIds: coupon.categoryIds, brandIds: [] },
      exclude: noProducts,
      customerGroupIds: [],
      currencies: [],
      startsAt: coupon.startsAt,
      endsAt: coupon.endsAt,
      timesUsed: coupon.timesUsed,
      usageLimit: coupon.usageLimit,
      usesByCustomer,
      perCustomerLimit: coupon.usageLimitPerCustomer,
    },
    priority: 0,
    combinesWithPromotions: true,
    combinesWithCodes: false,
  };
}
