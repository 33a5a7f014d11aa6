import type { CouponRow, coupons, PromotionRow } from '../../src/db/schema';
import { inCurrency, type PriceableLine, type PricingContext } from '../../src/modules/checkout/pricing';
import { toMajor } from '../../src/lib/money';
import { allocate, percentOf } from '../../src/modules/checkout/rates';

/**
 * How coupons were priced and refused before they became promotions rows (migration 0070): the
 * arithmetic src/lib/pricing.ts and src/modules/coupons/coupon-rules.ts had, kept here as the
 * reference the engine must match (promotions.coupons.node.test.ts), and the promotions row 0070
 * makes of a coupon (coupons-migration.test.ts checks the SQL writes exactly this).
 */

type Pricing = Pick<PricingContext, 'defaultMinorUnits' | 'currency'>;

/** True when the coupon discounts this line: unrestricted coupons apply to every line. */
export function couponApplies(coupon: Pick<CouponRow, 'productIds' | 'categoryIds'>, line: Pick<PriceableLine, 'productId' | 'categoryIds'>): boolean {
  if (coupon.productIds.length === 0 && coupon.categoryIds.length === 0) return true;
  return coupon.productIds.includes(line.productId) || line.categoryIds.some((id) => coupon.categoryIds.includes(id));
}

/** What the coupon took off each line (minor units of the pricing currency), given the lines' subtotals. */
export function couponDiscounts(
  coupon: Pick<CouponRow, 'type' | 'value' | 'productIds' | 'categoryIds'> & Partial<Pick<CouponRow, 'currencyAmounts'>>,
  lines: readonly Pick<PriceableLine, 'productId' | 'categoryIds'>[],
  subtotals: readonly number[],
  ctx: Pricing,
): number[] {
  const eligible = lines.map((line) => couponApplies(coupon, line));
  if (coupon.type === 'percentage') return subtotals.map((s, i) => (eligible[i] ? percentOf(s, coupon.value) : 0));
  const eligibleSubtotals = subtotals.map((s, i) => (eligible[i] ? s : 0));
  const cap = eligibleSubtotals.reduce((a, b) => a + b, 0);
  const own = coupon.currencyAmounts?.[ctx.currency.code];
  const amount = Math.min(own ? own.value : inCurrency(Number(coupon.value), ctx), cap);
  return allocate(amount, eligibleSubtotals);
}

/** The coupon's discounts as priceLines takes discounts (PricingContext.discounts), for lines priced at `unitPrices`. */
export function couponDiscountsByKey(
  coupon: Parameters<typeof couponDiscounts>[0],
  lines: readonly (Pick<PriceableLine, 'key' | 'productId' | 'categoryIds' | 'quantity'> & { unitPrice: number })[],
  ctx: Pricing,
): NonNullable<PricingContext['discounts']> {
  const amounts = couponDiscounts(
    coupon,
    lines,
    lines.map((l) => l.unitPrice * l.quantity),
    ctx,
  );
  const byKey = new Map(lines.map((l, i) => [l.key, amounts[i]!]));
  return { byKey: (key) => byKey.get(key) ?? 0, shipping: 0 };
}

export interface CouponUse {
  now: Date;
  usesByCustomer: number;
  subtotal: number;
  eligibleSubtotal: number;
}

/** Why the coupon could not be used, in words that finish "Coupon 'CODE' ...", or null when it could. */
export function couponProblem(coupon: CouponRow, use: CouponUse, pricing: Pricing): string | null {
  const now = use.now.toISOString();
  if (!coupon.active) return 'is not active';
  if (coupon.startsAt && now < coupon.startsAt) return `is not valid before ${coupon.startsAt}`;
  if (coupon.endsAt && now >= coupon.endsAt) return `expired at ${coupon.endsAt}`;
  if (coupon.usageLimit !== null && coupon.timesUsed >= coupon.usageLimit) return 'has been used up';
  if (coupon.usageLimitPerCustomer !== null && use.usesByCustomer >= coupon.usageLimitPerCustomer) {
    return `has already been used ${use.usesByCustomer} time(s) by this customer, the most allowed`;
  }
  if (use.eligibleSubtotal === 0) return 'does not apply to any item';
  const minimum = coupon.currencyAmounts[pricing.currency.code]?.minSubtotal ?? (coupon.minSubtotal === null ? null : inCurrency(coupon.minSubtotal, pricing));
  if (minimum !== null && use.subtotal < minimum) return `needs a subtotal of at least ${toMajor(minimum, pricing.currency.minorUnits)} ${pricing.currency.code}`;
  return null;
}

/** The promotions row migration 0070 makes of a coupon. */
export function promotionRowOfCoupon(coupon: CouponRow): PromotionRow {
  return {
    id: coupon.id,
    name: coupon.code,
    description: coupon.description,
    code: coupon.code,
    type: coupon.type,
    value: coupon.value,
    currencyAmounts: coupon.currencyAmounts,
    target: 'items',
    buyXGetY: null,
    freeShipping: null,
    minSubtotal: coupon.minSubtotal,
    minQuantity: null,
    include: { productIds: coupon.productIds, categoryIds: coupon.categoryIds, brandIds: [] },
    exclude: { productIds: [], categoryIds: [], brandIds: [] },
    customerGroupIds: [],
    currencies: [],
    startsAt: coupon.startsAt,
    endsAt: coupon.endsAt,
    usageLimit: coupon.usageLimit,
    perCustomerLimit: coupon.usageLimitPerCustomer,
    timesUsed: coupon.timesUsed,
    priority: 0,
    combinesWithPromotions: true,
    combinesWithCodes: false,
    active: coupon.active,
    isCoupon: true,
    createdAt: coupon.createdAt,
    updatedAt: coupon.updatedAt,
  };
}

/** The promotions row of a coupon given as the old `coupons` insert took it: for tests that write a coupon directly. */
export function couponPromotion(values: typeof coupons.$inferInsert): PromotionRow {
  const ts = new Date().toISOString();
  return promotionRowOfCoupon({
    description: null,
    minSubtotal: null,
    currencyAmounts: {},
    startsAt: null,
    endsAt: null,
    usageLimit: null,
    usageLimitPerCustomer: null,
    timesUsed: 0,
    productIds: [],
    categoryIds: [],
    active: true,
    createdAt: ts,
    updatedAt: ts,
    ...values,
  });
}
