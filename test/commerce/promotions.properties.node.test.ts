import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyPromotions } from '../../src/modules/checkout/promotion-engine';
import type { CartLine, ProductSet, Promotion, PromotionContext, PromotionResult } from '../../src/modules/checkout/promotion-types';
import { cart, promotion } from './promotion-fixtures';

/** Properties of the promotion engine that hold for any cart and any promotions (docs/promotions.md). */

const products = ['p1', 'p2', 'p3', 'p4'];
const categories = ['c1', 'c2', 'c3'];
const brands = ['b1', 'b2'];
const currencies = [
  { code: 'EUR', minorUnits: 2, exchangeRate: '1' },
  { code: 'JPY', minorUnits: 0, exchangeRate: '150.5' },
  { code: 'KWD', minorUnits: 3, exchangeRate: '0.3075' },
];

const productSet: fc.Arbitrary<ProductSet> = fc.record({
  productIds: fc.subarray(products, { maxLength: 2 }),
  categoryIds: fc.subarray(categories, { maxLength: 2 }),
  brandIds: fc.subarray(brands, { maxLength: 1 }),
});
/** Mostly `none`, so that most promotions apply and several often apply together. */
const rarely = <T, N>(arbitrary: fc.Arbitrary<T>, none: N) => fc.oneof({ weight: 3, arbitrary: fc.constant(none) }, { weight: 1, arbitrary });
const sometimesSet = rarely(productSet, { productIds: [], categoryIds: [], brandIds: [] });
const percent = fc.oneof(
  fc.integer({ min: 0, max: 100 }).map(String),
  fc.integer({ min: 0, max: 10000 }).map((n) => (n / 100).toFixed(2)),
);

const lines: fc.Arbitrary<CartLine[]> = fc
  .uniqueArray(
    fc.record({
      key: fc.string({ minLength: 1, maxLength: 3 }),
      productId: fc.constantFrom(...products),
      categoryIds: fc.subarray(categories),
      brandId: fc.constantFrom(null, ...brands),
      unitPrice: fc.integer({ min: 0, max: 50_000 }),
      quantity: fc.integer({ min: 1, max: 7 }),
    }),
    { selector: (line) => line.key, minLength: 1, maxLength: 6 },
  )
  .map((ls) => ls.map((l) => ({ ...l, categoryIds: [...l.categoryIds] })));

function promotionArbitrary(id: string): fc.Arbitrary<Promotion> {
  return fc
    .record({
      code: rarely(fc.constant(id.toUpperCase()), null),
      type: fc.constantFrom('percentage', 'fixed', 'buy_x_get_y', 'free_shipping'),
      percent,
      fixed: fc.integer({ min: 0, max: 30_000 }),
      ownAmount: fc.option(fc.record({ value: fc.integer({ min: 0, max: 30_000 }), minSubtotal: fc.option(fc.integer({ min: 0, max: 50_000 }), { nil: null }) }), {
        nil: undefined,
      }),
      target: fc.constantFrom('order', 'items'),
      buy: fc.record({ set: sometimesSet, quantity: fc.integer({ min: 1, max: 3 }) }),
      get: fc.record({ set: sometimesSet, quantity: fc.integer({ min: 1, max: 3 }), percent }),
      freeShipping: fc.record({ methodIds: rarely(fc.constantFrom(['m1'], ['m2']), []), zoneIds: rarely(fc.constantFrom(['z1'], ['z2']), []) }),
      minSubtotal: rarely(fc.integer({ min: 0, max: 60_000 }), null),
      minQuantity: rarely(fc.integer({ min: 1, max: 6 }), null),
      include: sometimesSet,
      exclude: sometimesSet,
      customerGroupIds: rarely(fc.constantFrom(['g1'], ['g2']), []),
      priority: fc.integer({ min: 0, max: 3 }),
      combinesWithPromotions: rarely(fc.constant(false), true),
      combinesWithCodes: fc.boolean(),
    })
    .map((r) =>
      promotion({
        id,
        name: `Promotion ${id}`,
        code: r.code,
        type: r.type,
        value: r.type === 'percentage' ? r.percent : r.type === 'fixed' ? String(r.fixed) : '0',
        currencyAmounts: r.ownAmount ? { JPY: r.ownAmount } : {},
        target: r.target,
        buyXGetY: r.type === 'buy_x_get_y' ? { buy: { ...r.buy.set, quantity: r.buy.quantity }, get: { ...r.get.set, quantity: r.get.quantity, percent: r.get.percent } } : null,
        freeShipping: r.type === 'free_shipping' ? r.freeShipping : null,
        priority: r.priority,
        combinesWithPromotions: r.combinesWithPromotions,
        combinesWithCodes: r.combinesWithCodes,
        conditions: { minSubtotal: r.minSubtotal, minQuantity: r.minQuantity, include: r.include, exclude: r.exclude, customerGroupIds: r.customerGroupIds },
      }),
    );
}

const promotions: fc.Arbitrary<Promotion[]> = fc.integer({ min: 1, max: 6 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => promotionArbitrary(`promo-${i}`))));

/** A shipping price that depends on the discounted subtotal, as shipping rates by price do. */
const shipping = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      methodId: fc.constantFrom('m1', 'm2'),
      zoneId: fc.constantFrom('z1', 'z2'),
      flat: fc.integer({ min: 1, max: 2000 }),
      freeFrom: fc.integer({ min: 0, max: 200_000 }),
    }),
  },
  { weight: 1, arbitrary: fc.constant(null) },
);

const scenario = fc.record({ lines, promotions, currency: fc.constantFrom(...currencies), groups: fc.subarray(['g1', 'g2']), shipping, extraCode: fc.boolean() }).chain((s) => {
  const codes = s.promotions.flatMap((p) => (p.code ? [p.code] : []));
  return fc.subarray(codes, { minLength: Math.min(1, codes.length) }).map((entered) => {
    const context: PromotionContext = cart(s.lines, {
      currency: s.currency,
      customerGroupIds: s.groups,
      shipping: s.shipping && { methodId: s.shipping.methodId, zoneId: s.shipping.zoneId, priceFor: (subtotal) => (subtotal >= s.shipping!.freeFrom ? 0 : s.shipping!.flat) },
      codes: s.extraCode ? [...entered, 'NOT-A-CODE'] : entered,
    });
    return { context, promotions: s.promotions };
  });
});

const byKey = (result: PromotionResult) => Object.fromEntries(result.lines.map((l) => [l.key, l]));
const totalOff = (result: PromotionResult) => result.lineDiscountTotal + result.shippingDiscount;
const runs = { numRuns: 300 };

describe('applyPromotions, for any cart and promotions', () => {
  it('never makes a line negative, nor takes off more than the subtotal plus shipping', () => {
    fc.assert(
      fc.property(scenario, ({ context, promotions }) => {
        const result = applyPromotions(context, promotions);
        for (const l of result.lines) {
          expect(l.discount).toBeGreaterThanOrEqual(0);
          expect(l.discount).toBeLessThanOrEqual(l.subtotal);
          expect(l.discount).toBe(l.promotions.reduce((sum, p) => sum + p.amount, 0));
          for (const p of l.promotions) expect(p.amount).toBeGreaterThan(0);
        }
        expect(result.lineDiscountTotal).toBe(result.lines.reduce((sum, l) => sum + l.discount, 0));
        expect(result.lineDiscountTotal).toBeLessThanOrEqual(result.subtotal);
        expect(result.shippingDiscount).toBeGreaterThanOrEqual(0);
        expect(result.shippingDiscount).toBeLessThanOrEqual(result.shippingPrice);
        expect(totalOff(result)).toBeLessThanOrEqual(result.subtotal + result.shippingPrice);
      }),
      runs,
    );
  });

  it('gives the same result whatever the order of the lines and of the promotions', () => {
    fc.assert(
      fc.property(
        scenario.chain((s) =>
          fc.tuple(
            fc.constant(s),
            fc.shuffledSubarray([...s.context.lines], { minLength: s.context.lines.length }),
            fc.shuffledSubarray(s.promotions, { minLength: s.promotions.length }),
          ),
        ),
        ([{ context, promotions }, shuffledLines, shuffledPromotions]) => {
          const result = applyPromotions(context, promotions);
          const shuffled = applyPromotions({ ...context, lines: shuffledLines }, shuffledPromotions);
          expect(shuffled.lines.map((l) => l.key)).toEqual(shuffledLines.map((l) => l.key)); // answered in the input's order
          expect(byKey(shuffled)).toEqual(byKey(result));
          expect({ ...shuffled, lines: [] }).toEqual({ ...result, lines: [] });
        },
      ),
      runs,
    );
  });

  it('is deterministic: the same input gives the same result', () => {
    fc.assert(
      fc.property(scenario, ({ context, promotions }) => {
        expect(applyPromotions(context, promotions)).toEqual(applyPromotions(context, promotions));
      }),
      runs,
    );
  });

  it("gives each applied promotion the sum of its line allocations, plus the shipping for free shipping's", () => {
    fc.assert(
      fc.property(scenario, ({ context, promotions }) => {
        const result = applyPromotions(context, promotions);
        const shippingParts = result.applied.map((applied) => {
          const onLines = result.lines.flatMap((l) => l.promotions).filter((p) => p.promotionId === applied.promotionId);
          const onShipping = applied.amount - onLines.reduce((sum, p) => sum + p.amount, 0);
          expect(onShipping === 0 || promotions.find((p) => p.id === applied.promotionId)!.type === 'free_shipping').toBe(true);
          return onShipping;
        });
        expect(shippingParts.filter((part) => part !== 0).length).toBeLessThanOrEqual(1);
        expect(shippingParts.reduce((a, b) => a + b, 0)).toBe(result.shippingDiscount);
        expect(result.applied.reduce((sum, a) => sum + a.amount, 0)).toBe(totalOff(result));
      }),
      runs,
    );
  });

  it('applies only promotions that combine with each other, and answers every entered code', () => {
    fc.assert(
      fc.property(scenario, ({ context, promotions }) => {
        const result = applyPromotions(context, promotions);
        const applied = result.applied.map((a) => promotions.find((p) => p.id === a.promotionId)!);
        // Written out rather than calling the engine's own rule: each allows the other's kind.
        const allows = (a: Promotion, b: Promotion) => (b.code === null ? a.combinesWithPromotions : a.combinesWithCodes);
        for (const a of applied) for (const b of applied) if (a !== b) expect(allows(a, b)).toBe(true);
        for (const code of context.codes) {
          const answers = result.applied.filter((a) => a.code === code).length + result.notApplicable.filter((n) => n.code === code).length;
          expect(answers).toBe(1);
        }
        expect(applied.every((p) => p.code === null || context.codes.includes(p.code))).toBe(true);
      }),
      runs,
    );
  });

  it('of a non-combinable automatic promotion and a code, applies the one that takes more', () => {
    const pair = fc.tuple(promotionArbitrary('promo-auto'), promotionArbitrary('promo-code'), lines, fc.constantFrom(...currencies)).map(([auto, code, ls, currency]) => ({
      auto: { ...auto, code: null, combinesWithCodes: false, conditions: { ...auto.conditions, customerGroupIds: [] } },
      code: { ...code, code: 'CODE', conditions: { ...code.conditions, customerGroupIds: [] } },
      context: cart(ls, { currency, codes: ['CODE'], shipping: { methodId: 'm1', zoneId: 'z1', priceFor: () => 495 } }),
    }));
    fc.assert(
      fc.property(pair, ({ auto, code, context }) => {
        const alone = (p: Promotion) => totalOff(applyPromotions(context, [p]));
        const result = applyPromotions(context, [auto, code]);
        expect(totalOff(result)).toBe(Math.max(alone(auto), alone(code)));
        expect(result.applied.length).toBeLessThanOrEqual(1);
      }),
      runs,
    );
  });
});
