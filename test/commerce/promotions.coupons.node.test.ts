import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CouponRow } from '../../src/db/schema';
import { inCurrency, type PricingContext, priceLines } from '../../src/modules/checkout/pricing';
import { applyPromotions } from '../../src/modules/checkout/promotion-engine';
import { promotionOfRow } from '../../src/modules/checkout/promotion-row';
import { couponApplies, couponDiscountsByKey, couponProblem, promotionRowOfCoupon } from './coupon-reference';
import { cart } from './promotion-fixtures';

/**
 * A coupon as the promotions row migration 0070 makes of it prices every cart as src/lib/pricing.ts
 * priced it with the coupon, and is refused for the same reason coupon-rules.ts gave (both kept in
 * coupon-reference.ts), so coupons moved onto the engine without changing a single cart.
 */

const currencies = [
  { code: 'EUR', minorUnits: 2, exchangeRate: '1' },
  { code: 'USD', minorUnits: 2, exchangeRate: '1.0832' },
  { code: 'JPY', minorUnits: 0, exchangeRate: '150.5' },
  { code: 'KWD', minorUnits: 3, exchangeRate: '0.3075' },
];
const products = ['p1', 'p2', 'p3'];
const categories = ['c1', 'c2', 'c3'];
const percent = fc.oneof(
  fc.integer({ min: 0, max: 100 }).map(String),
  fc.integer({ min: 0, max: 100_000 }).map((n) => (n / 1000).toFixed(3).replace(/\.?0+$/, '')),
);
/** Mostly null, so that most coupons are usable and their discounts compared. */
const rarely = <T>(arbitrary: fc.Arbitrary<T>) => fc.oneof({ weight: 4, arbitrary: fc.constant(null) }, { weight: 1, arbitrary });
const time = fc.integer({ min: Date.parse('2026-01-01'), max: Date.parse('2027-01-01') }).map((t) => new Date(t).toISOString());

const coupon = fc
  .record({
    type: fc.constantFrom('percentage', 'fixed'),
    percent,
    // Odd small amounts often, so that equal lines split them with a unit left over.
    amount: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(1, 333, 1001) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 40_000 }) }),
    own: fc.option(fc.record({ value: fc.integer({ min: 0, max: 40_000 }), minSubtotal: rarely(fc.integer({ min: 0, max: 90_000 })) }), { nil: undefined }),
    ownFor: fc.constantFrom(...currencies.map((c) => c.code)),
    minSubtotal: rarely(fc.integer({ min: 0, max: 90_000 })),
    productIds: fc.subarray(products, { maxLength: 2 }),
    categoryIds: fc.subarray(categories, { maxLength: 2 }),
    startsAt: rarely(time),
    endsAt: rarely(time),
    usageLimit: rarely(fc.integer({ min: 0, max: 3 })),
    timesUsed: fc.integer({ min: 0, max: 3 }),
    usageLimitPerCustomer: rarely(fc.integer({ min: 0, max: 2 })),
  })
  .map(
    (c): CouponRow => ({
      id: 'coupon-1',
      code: 'SAVE',
      description: null,
      type: c.type,
      value: c.type === 'percentage' ? c.percent : String(c.amount),
      minSubtotal: c.minSubtotal,
      currencyAmounts: c.own ? { [c.ownFor]: c.own } : {},
      startsAt: c.startsAt,
      endsAt: c.endsAt,
      usageLimit: c.usageLimit,
      usageLimitPerCustomer: c.usageLimitPerCustomer,
      timesUsed: c.timesUsed,
      productIds: c.productIds,
      categoryIds: c.categoryIds,
      active: true,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    }),
  );

/** Cart lines as quote.ts hands them to priceLines, in the order of their keys (cart line ids sort by creation). */
const lines = fc
  .uniqueArray(
    fc.record({
      key: fc.string({ minLength: 1, maxLength: 4 }),
      productId: fc.constantFrom(...products),
      categoryIds: fc.subarray(categories),
      // Equal prices often, so fixed amounts often split with ties.
      unitPrice: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(0, 500, 1500) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 60_000 }) }),
      ownUnitPrice: fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 9_000_000 }) }),
      quantity: fc.oneof({ weight: 3, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.integer({ min: 1, max: 9 }) }),
    }),
    { selector: (l) => l.key, maxLength: 8 },
  )
  .map((ls) => ls.map((l) => ({ ...l, categoryIds: [...l.categoryIds], taxClass: 'standard' })).sort((a, b) => (a.key < b.key ? -1 : 1)));

const scenario = fc
  .record({ coupon, lines, currency: fc.constantFrom(...currencies), now: time, usesByCustomer: fc.integer({ min: 0, max: 2 }) })
  .chain((s) => fc.tuple(fc.constant(s), fc.shuffledSubarray(s.lines, { minLength: s.lines.length })));

type Scenario = typeof scenario extends fc.Arbitrary<[infer S, unknown]> ? S : never;

/** The cart priced by priceLines with the coupon's discounts as pricing.ts reckoned them, and coupon-rules.ts's verdict on it (null: usable). */
function pricedWithCoupon(s: Scenario) {
  const pricing: PricingContext = {
    defaultMinorUnits: 2,
    currency: s.currency,
    tax: { inclusive: false, rateFor: () => null, shippingRate: null },
    shipping: () => 0,
  };
  const unitPriced = s.lines.map((l) => ({ ...l, unitPrice: l.ownUnitPrice ?? inCurrency(l.unitPrice, pricing) }));
  const priced = priceLines(s.lines, { ...pricing, discounts: couponDiscountsByKey(s.coupon, unitPriced, pricing) });
  const eligibleSubtotal = priced.lines.filter((_, i) => couponApplies(s.coupon, s.lines[i]!)).reduce((a, l) => a + l.subtotal, 0);
  const use = { now: new Date(s.now), usesByCustomer: s.usesByCustomer, subtotal: priced.subtotal, eligibleSubtotal };
  return { pricing, priced, problem: couponProblem(s.coupon, use, pricing) };
}

/** The same cart through the engine, its lines in the order given: unit prices in the cart's currency, as priceLines reckons them. */
function promoted(s: Scenario, lines: Scenario['lines'], pricing: PricingContext) {
  const engineLines = lines.map((l) => ({
    key: l.key,
    productId: l.productId,
    categoryIds: l.categoryIds,
    brandId: null,
    unitPrice: l.ownUnitPrice ?? inCurrency(l.unitPrice, pricing),
    quantity: l.quantity,
  }));
  return applyPromotions(cart(engineLines, { currency: s.currency, now: new Date(s.now), codes: ['SAVE'] }), [promotionOfRow(promotionRowOfCoupon(s.coupon), s.usesByCustomer)]);
}

describe('a coupon as a code promotion', () => {
  it('takes off every line exactly what priceLines takes off with the coupon, whatever the order the engine gets the lines in', () => {
    fc.assert(
      fc.property(scenario, ([s, shuffled]) => {
        const { pricing, priced, problem } = pricedWithCoupon(s);
        const usable = problem === null;
        const result = promoted(s, shuffled, pricing);
        const discounts = Object.fromEntries(result.lines.map((l) => [l.key, l.discount]));
        // priceLines prices with a coupon already found usable; the engine checks it itself.
        for (const line of priced.lines) expect(discounts[line.key]).toBe(usable ? line.discount : 0);
        expect(result.subtotal).toBe(priced.subtotal);
        expect(result.lineDiscountTotal).toBe(usable ? priced.discountTotal : 0);
      }),
      { numRuns: 500 },
    );
  });

  it('is refused when coupon-rules.ts refuses the coupon, in the same words', () => {
    fc.assert(
      fc.property(scenario, ([s]) => {
        const { pricing, problem } = pricedWithCoupon(s);
        const result = promoted(s, s.lines, pricing);
        expect(result.notApplicable.map((n) => n.message)).toEqual(problem === null ? [] : [`Code 'SAVE' ${problem}`]);
        expect(result.applied.map((a) => a.code)).toEqual(problem === null ? ['SAVE'] : []);
      }),
      { numRuns: 500 },
    );
  });
});
