import { describe, expect, it } from 'vitest';
import { MAX_WEIGHED_CONFLICTS } from '../../src/modules/checkout/promotion-combinations';
import { applyPromotions } from '../../src/modules/checkout/promotion-engine';
import { cart, line, promotion } from './promotion-fixtures';

/** The promotion engine's rules (docs/promotions.md), one worked example each; its properties are in promotions.properties.node.test.ts. */

const saleCategory = { categoryIds: ['cat-sale'] };
const socks = { categoryIds: ['cat-socks'] };

describe('percentage off items', () => {
  it('10% off everything in Sale, without a code: each line of the category rounded half-up on its own', () => {
    const tenOffSale = promotion({ id: 'promo-sale', name: 'Sale: 10% off', value: '10', conditions: { include: { productIds: [], categoryIds: ['cat-sale'], brandIds: [] } } });
    const result = applyPromotions(cart([line('dress', 4999, 1, saleCategory), line('shirt', 1999, 2), line('scarf', 1250, 1, saleCategory)]), [tenOffSale]);
    expect(result.lines.map((l) => [l.key, l.discount])).toEqual([
      ['dress', 500], // 499.9
      ['shirt', 0],
      ['scarf', 125],
    ]);
    expect(result.lines[0]!.promotions).toEqual([{ promotionId: 'promo-sale', name: 'Sale: 10% off', amount: 500 }]);
    expect(result.applied).toEqual([{ promotionId: 'promo-sale', name: 'Sale: 10% off', code: null, amount: 625, shippingAmount: 0 }]);
    expect(result.lineDiscountTotal).toBe(625);
    expect(result.notApplicable).toEqual([]);
  });

  it('on the order: every line but the excluded ones', () => {
    const fiveOff = promotion({ id: 'promo-order', value: '5', target: 'order', conditions: { exclude: { productIds: ['prod-gift'], categoryIds: [], brandIds: [] } } });
    const result = applyPromotions(cart([line('book', 2000), line('gift', 5000)]), [fiveOff]);
    expect(result.lines.map((l) => l.discount)).toEqual([100, 0]);
  });
});

describe('fixed amount', () => {
  it('is spread in proportion to what is left of the lines, the leftover unit to the line first by key, whatever the input order', () => {
    const tenEuros = promotion({ id: 'promo-10', type: 'fixed', value: '1000' });
    const lines = [line('c', 1500), line('a', 1500), line('b', 1500)];
    const result = applyPromotions(cart(lines), [tenEuros]);
    expect(result.lines.map((l) => [l.key, l.discount])).toEqual([
      ['c', 333],
      ['a', 334], // 333.33 each; the spare cent goes to key 'a'
      ['b', 333],
    ]);
    expect(applyPromotions(cart([...lines].reverse()), [tenEuros]).lines.find((l) => l.key === 'a')!.discount).toBe(334);
  });

  it('never takes more than the lines it applies to, and uses the amount the shop set for the currency', () => {
    const twentyEuros = promotion({ id: 'promo-20', type: 'fixed', value: '2000', currencyAmounts: { USD: { value: 2500, minSubtotal: null } } });
    expect(applyPromotions(cart([line('pen', 1200)]), [twentyEuros]).lineDiscountTotal).toBe(1200);
    const usd = { code: 'USD', minorUnits: 2, exchangeRate: '1.1' };
    expect(applyPromotions(cart([line('lamp', 9000)], { currency: usd }), [twentyEuros]).lineDiscountTotal).toBe(2500);
    const jpy = { code: 'JPY', minorUnits: 0, exchangeRate: '150.5' };
    expect(applyPromotions(cart([line('lamp', 30000)], { currency: jpy }), [twentyEuros]).lineDiscountTotal).toBe(3010); // 20.00 EUR × 150.5
  });
});

describe('buy x get y', () => {
  const threeForTwo = promotion({
    id: 'promo-socks',
    name: 'Socks: 3 for 2',
    type: 'buy_x_get_y',
    buyXGetY: {
      buy: { productIds: [], categoryIds: ['cat-socks'], brandIds: [], quantity: 2 },
      get: { productIds: [], categoryIds: [], brandIds: [], quantity: 1, percent: '100' },
    },
  });

  it('buy 2 socks, get the third free: the cheapest pair is the one got', () => {
    const result = applyPromotions(cart([line('socks-a', 500, 2, socks), line('socks-b', 400, 1, socks), line('hat', 2000)]), [threeForTwo]);
    expect(result.lines.map((l) => [l.key, l.discount])).toEqual([
      ['socks-a', 0],
      ['socks-b', 400],
      ['hat', 0],
    ]);
    expect(result.applied).toEqual([{ promotionId: 'promo-socks', name: 'Socks: 3 for 2', code: null, amount: 400, shippingAmount: 0 }]);
  });

  it('seven socks give two free, the two cheapest units', () => {
    const result = applyPromotions(cart([line('socks-a', 500, 4, socks), line('socks-b', 400, 2, socks), line('socks-c', 300, 1, socks)]), [threeForTwo]);
    expect(result.lines.map((l) => l.discount)).toEqual([0, 400, 300]);
  });

  it('a free sample sock is neither bought nor the unit got', () => {
    const result = applyPromotions(cart([line('sample', 0, 1, socks), line('socks-a', 500, 3, socks)]), [threeForTwo]);
    expect(result.lines.map((l) => l.discount)).toEqual([0, 500]);
    expect(applyPromotions(cart([line('sample', 0, 1, socks), line('socks-a', 500, 2, socks)]), [threeForTwo]).applied).toEqual([]);
  });

  it('two socks give nothing', () => {
    const result = applyPromotions(cart([line('socks-a', 500, 2, socks)], { codes: [] }), [threeForTwo]);
    expect(result.applied).toEqual([]);
    const coded = applyPromotions(cart([line('socks-a', 500, 2, socks)], { codes: ['SOCKS'] }), [{ ...threeForTwo, code: 'SOCKS' }]);
    expect(coded.notApplicable).toEqual([{ code: 'SOCKS', condition: 'buy_quantity', message: "Code 'SOCKS' needs 2 item(s) bought before it gives any" }]);
  });

  it('with a set to get from: buy a camera, get a memory card half price', () => {
    const bundle = promotion({
      id: 'promo-bundle',
      type: 'buy_x_get_y',
      buyXGetY: {
        buy: { productIds: ['prod-camera'], categoryIds: [], brandIds: [], quantity: 1 },
        get: { productIds: ['prod-card'], categoryIds: [], brandIds: [], quantity: 1, percent: '50' },
      },
    });
    const result = applyPromotions(cart([line('camera', 49900), line('card', 1999, 3)]), [bundle]);
    expect(result.lines.map((l) => l.discount)).toEqual([0, 1000]); // one card: 999.5
  });
});

describe('free shipping', () => {
  const members = promotion({
    id: 'promo-ship',
    name: 'Free shipping for members',
    type: 'free_shipping',
    freeShipping: { methodIds: [], zoneIds: [] },
    conditions: { minSubtotal: 5000, customerGroupIds: ['grp-members'] },
  });
  const shipping = { methodId: 'ship-standard', zoneId: 'zone-eu', priceFor: () => 495 };

  it('over €50 for members: the shipping price is taken off', () => {
    const result = applyPromotions(cart([line('boots', 6000)], { shipping, customerGroupIds: ['grp-members'] }), [members]);
    expect(result.shippingPrice).toBe(495);
    expect(result.shippingDiscount).toBe(495);
    expect(result.lineDiscountTotal).toBe(0);
    expect(result.applied).toEqual([{ promotionId: 'promo-ship', name: 'Free shipping for members', code: null, amount: 495, shippingAmount: 495 }]);
  });

  it('not for other customers, nor under €50', () => {
    expect(applyPromotions(cart([line('boots', 6000)], { shipping }), [members]).shippingDiscount).toBe(0);
    expect(applyPromotions(cart([line('socks', 4999)], { shipping, customerGroupIds: ['grp-members'] }), [members]).shippingDiscount).toBe(0);
  });

  it('limited to shipping methods: a code for another method says so', () => {
    const express = promotion({ id: 'promo-express', code: 'FASTFREE', type: 'free_shipping', freeShipping: { methodIds: ['ship-express'], zoneIds: [] } });
    const result = applyPromotions(cart([line('boots', 6000)], { shipping, codes: ['FASTFREE'] }), [express]);
    expect(result.shippingDiscount).toBe(0);
    expect(result.notApplicable).toEqual([{ code: 'FASTFREE', condition: 'shipping_method', message: "Code 'FASTFREE' does not apply to the chosen shipping method" }]);
  });

  it('is reckoned on the shipping price for the subtotal after line discounts', () => {
    const freeFrom50 = { ...shipping, priceFor: (subtotal: number) => (subtotal >= 5000 ? 0 : 495) };
    const tenOff = promotion({ id: 'promo-ten', value: '10' });
    const result = applyPromotions(cart([line('boots', 5200)], { shipping: freeFrom50 }), [tenOff]);
    expect(result.lineDiscountTotal).toBe(520);
    expect(result.shippingPrice).toBe(495); // for 46.80 after the discount, not for 52.00
  });
});

describe('priority and what is left of a line', () => {
  it('applies higher priority first, each promotion on what the ones before left', () => {
    const tenEuros = promotion({ id: 'promo-b', name: '€10 off', type: 'fixed', value: '1000', priority: 1 });
    const tenPercent = promotion({ id: 'promo-a', name: '10% off', value: '10' });
    const result = applyPromotions(cart([line('coat', 10000)]), [tenPercent, tenEuros]);
    // €10 first (priority 1): 10000 - 1000 = 9000; then 10% of 9000.
    expect(result.lines[0]!.promotions).toEqual([
      { promotionId: 'promo-b', name: '€10 off', amount: 1000 },
      { promotionId: 'promo-a', name: '10% off', amount: 900 },
    ]);
    expect(result.applied.map((a) => a.promotionId)).toEqual(['promo-b', 'promo-a']);
  });
});

describe('a non-combinable automatic promotion and a code', () => {
  const winterSale = promotion({ id: 'promo-winter', name: 'Winter sale', value: '20', combinesWithCodes: false });
  const save10 = promotion({ id: 'promo-save10', name: 'SAVE10', code: 'SAVE10', type: 'fixed', value: '1000' });

  it('the code applies when it takes more: €10 beats 20% of €40', () => {
    const result = applyPromotions(cart([line('jumper', 4000)], { codes: ['SAVE10'] }), [winterSale, save10]);
    expect(result.applied).toEqual([{ promotionId: 'promo-save10', name: 'SAVE10', code: 'SAVE10', amount: 1000, shippingAmount: 0 }]);
    expect(result.notApplicable).toEqual([]);
  });

  it('the automatic promotion applies when it takes more: 20% of €60 beats €10, and the code says why it is left out', () => {
    const result = applyPromotions(cart([line('jumper', 6000)], { codes: ['SAVE10'] }), [winterSale, save10]);
    expect(result.applied).toEqual([{ promotionId: 'promo-winter', name: 'Winter sale', code: null, amount: 1200, shippingAmount: 0 }]);
    expect(result.notApplicable).toEqual([
      { code: 'SAVE10', condition: 'not_combinable', message: "Code 'SAVE10' does not combine with 'Winter sale', which takes more off this cart" },
    ]);
  });

  it('on a tie, the promotion first in the order of application (higher priority, then id)', () => {
    const result = applyPromotions(cart([line('jumper', 5000)], { codes: ['SAVE10'] }), [winterSale, save10]);
    expect(result.applied.map((a) => a.promotionId)).toEqual(['promo-save10']); // 'promo-save10' < 'promo-winter'
    const urgent = { ...winterSale, priority: 5 };
    expect(applyPromotions(cart([line('jumper', 5000)], { codes: ['SAVE10'] }), [urgent, save10]).applied.map((a) => a.promotionId)).toEqual(['promo-winter']);
  });

  it('combinable ones apply together', () => {
    const result = applyPromotions(cart([line('jumper', 6000)], { codes: ['SAVE10'] }), [{ ...winterSale, combinesWithCodes: true }, save10]);
    expect(result.lineDiscountTotal).toBe(2000); // both at priority 0, 'promo-save10' first: 1000, then 20% of 5000
  });
});

describe('many promotions in conflict', () => {
  it(`past ${MAX_WEIGHED_CONFLICTS} of them, each joins, from the one that takes most off alone, if it combines with those taken`, () => {
    const exclusive = (i: number, percent: number) => promotion({ id: `promo-${String(i).padStart(2, '0')}`, value: String(percent), combinesWithPromotions: false });
    const coat = cart([line('coat', 10000)]);
    const few = Array.from({ length: MAX_WEIGHED_CONFLICTS }, (_, i) => exclusive(i, i + 1));
    // Weighed: the best of them, 12% of €100.
    expect(applyPromotions(coat, few).applied.map((a) => a.amount)).toEqual([1200]);
    // One more: no longer weighed. The one that takes most alone (50%) is taken first and, combining with none, keeps the others out.
    expect(applyPromotions(coat, [...few, exclusive(12, 50)]).applied.map((a) => [a.promotionId, a.amount])).toEqual([['promo-12', 5000]]);
  });
});

describe('why a code does not apply: the first failed condition', () => {
  const jumper = [line('jumper', 4000, 1, { categoryIds: ['cat-knit'] })];
  const reasonFor = (conditions: Parameters<typeof promotion>[0]['conditions'], fields: Partial<Parameters<typeof cart>[1]> = {}) =>
    applyPromotions(cart(jumper, { codes: ['CODE'], ...fields }), [promotion({ id: 'promo-code', code: 'CODE', value: '10', conditions })]).notApplicable;

  it.each([
    ['not_started', { startsAt: '2026-07-01T00:00:00.000Z' }, "Code 'CODE' is not valid before 2026-07-01T00:00:00.000Z"],
    ['expired', { endsAt: '2026-06-01T12:00:00.000Z' }, "Code 'CODE' expired at 2026-06-01T12:00:00.000Z"],
    ['usage_limit', { usageLimit: 5, timesUsed: 5 }, "Code 'CODE' has been used up"],
    ['per_customer_limit', { perCustomerLimit: 1, usesByCustomer: 1 }, "Code 'CODE' has already been used 1 time(s) by this customer, the most allowed"],
    ['currency', { currencies: ['USD'] }, "Code 'CODE' does not apply to carts in EUR"],
    ['customer_group', { customerGroupIds: ['grp-wholesale'] }, "Code 'CODE' is for customers of other groups"],
    ['no_matching_items', { include: { productIds: [], categoryIds: [], brandIds: ['brand-x'] } }, "Code 'CODE' does not apply to any item"],
    ['min_quantity', { minQuantity: 2 }, "Code 'CODE' needs at least 2 matching item(s)"],
    ['min_subtotal', { minSubtotal: 5000 }, "Code 'CODE' needs a subtotal of at least 50 EUR"],
  ] as const)('%s', (condition, conditions, message) => {
    expect(reasonFor(conditions)).toEqual([{ code: 'CODE', condition, message }]);
  });

  it('checks in the documented order: an expired code over its minimum is told it expired', () => {
    expect(reasonFor({ endsAt: '2026-01-01T00:00:00.000Z', minSubtotal: 99999, currencies: ['USD'] })[0]!.condition).toBe('expired');
  });

  it('an excluded category makes the item not match', () => {
    expect(reasonFor({ exclude: { productIds: [], categoryIds: ['cat-knit'], brandIds: [] } })[0]!.condition).toBe('no_matching_items');
  });

  it('a code no promotion has', () => {
    expect(applyPromotions(cart(jumper, { codes: ['NOPE'] }), []).notApplicable).toEqual([{ code: 'NOPE', condition: 'unknown_code', message: "Code 'NOPE' does not exist" }]);
  });

  it('a code whose conditions hold is applied and not listed', () => {
    expect(reasonFor({ minSubtotal: 4000, currencies: ['EUR'] })).toEqual([]);
  });
});

it('refuses two lines with the same key: allocation could not be independent of their order', () => {
  expect(() => applyPromotions(cart([line('a', 100), line('a', 200)]), [])).toThrow(RangeError);
});
