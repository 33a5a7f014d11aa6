import { describe, expect, it } from 'vitest';
import { inCurrency, type PricingContext, priceLines } from '../../src/modules/checkout/pricing';
import { methodPrice } from '../../src/modules/checkout/shipping-rates';
import { allocate, convertMinor, decimalText, percentOf, taxInside } from '../../src/modules/checkout/rates';
import { pricingTax } from '../../src/modules/checkout/tax-rates';
import type { TaxRateRow } from '../../src/db/schema';
import { couponApplies, couponDiscountsByKey } from './coupon-reference';

const usd = { code: 'USD', minorUnits: 2, exchangeRate: '1' };
const untaxed = { inclusive: false, rateFor: () => null, shippingRate: null };
const base: PricingContext = { defaultMinorUnits: 2, currency: usd, tax: untaxed, shipping: () => 0 };
/** A coupon's discounts as pricing.ts reckoned them before coupons became promotions (coupon-reference.ts). */
const withCoupon = (coupon: Parameters<typeof couponDiscountsByKey>[0], lines: ReturnType<typeof line>[], ctx: PricingContext = base): PricingContext => ({
  ...ctx,
  discounts: couponDiscountsByKey(coupon, lines, ctx),
});
/** Every class at `rate`, added on top (or inside); shipping taxed at it when `shippingTaxable`. */
const flatTax = (rate: string, shippingTaxable = false, inclusive = false) => ({ inclusive, rateFor: () => rate, shippingRate: shippingTaxable ? rate : null });
const line = (key: string, unitPrice: number, quantity = 1, productId = `p-${key}`, categoryIds: string[] = [], taxClass = 'standard') => ({
  key,
  productId,
  categoryIds,
  unitPrice,
  quantity,
  taxClass,
});
const rate = (taxClass: string, percent: string, region: string | null = null, shippingTaxable = false): TaxRateRow => ({
  id: `tax-${taxClass}-${region}`,
  name: taxClass,
  country: 'DE',
  region,
  rate: percent,
  taxClass,
  shippingTaxable,
  createdAt: '',
  updatedAt: '',
});

describe('rate arithmetic', () => {
  it('rounds percentages half-up, exactly', () => {
    expect(percentOf(1999, '19')).toBe(380); // 379.81
    expect(percentOf(250, '10')).toBe(25);
    expect(percentOf(5, '10')).toBe(1); // 0.5 rounds up
    expect(percentOf(4, '12.5')).toBe(1); // 0.5 rounds up
    expect(percentOf(3, '12.5')).toBe(0); // 0.375
    expect(percentOf(1000, '8.875')).toBe(89); // 88.75
  });

  it('finds the tax inside an amount that includes it, rounded half-up', () => {
    expect(taxInside(2990, '19')).toBe(477); // 477.39: €29.90 holds €4.77 VAT
    expect(taxInside(1500, '7')).toBe(98); // 98.13
    expect(taxInside(1200, '20')).toBe(200); // exact
    expect(taxInside(107, '7')).toBe(7); // exact
    expect(taxInside(1000, '0')).toBe(0);
    expect(taxInside(221, '10.5')).toBe(21); // 20.99
  });

  it('converts between currencies with different minor units', () => {
    expect(convertMinor(1000, 2, 0, '150.5')).toBe(1505); // 10.00 USD -> 1505 JPY
    expect(convertMinor(1999, 2, 2, '0.92')).toBe(1839); // 18.3908
    expect(convertMinor(1000, 2, 3, '0.3075')).toBe(3075); // 10.00 USD -> 3.075 KWD
    expect(convertMinor(1, 2, 2, '0.5')).toBe(1); // 0.005 rounds up
  });

  it('allocates an amount in whole units that add up exactly', () => {
    expect(allocate(100, [1, 1, 1])).toEqual([34, 33, 33]);
    expect(allocate(1000, [3000, 1000])).toEqual([750, 250]);
    expect(allocate(0, [5, 5])).toEqual([0, 0]);
  });

  it('writes numbers as canonical decimal text', () => {
    expect(decimalText(0.92)).toBe('0.92');
    expect(decimalText(19)).toBe('19');
    expect(decimalText(8.875)).toBe('8.875');
    expect(decimalText(0.123456789, 8)).toBeNull();
  });
});

describe('priceLines', () => {
  it('sums lines; totals are sums of rounded lines', () => {
    const totals = priceLines([line('a', 1999, 3), line('b', 500)], { ...base, tax: flatTax('8.875') });
    expect(totals.lines.map((l) => l.subtotal)).toEqual([5997, 500]);
    expect(totals.lines.map((l) => l.tax)).toEqual([532, 44]); // 532.23, 44.375
    expect(totals).toMatchObject({ subtotal: 6497, discountTotal: 0, taxTotal: 576, shippingTotal: 0, total: 7073 });
  });

  it('applies a percentage coupon per line, only to the lines it covers', () => {
    const coupon = { type: 'percentage' as const, value: '15', productIds: ['p-a'], categoryIds: ['cat-x'] };
    const lines = [line('a', 999), line('b', 1000, 1, 'p-b', ['cat-x']), line('c', 1000)];
    const totals = priceLines(lines, withCoupon(coupon, lines));
    expect(totals.lines.map((l) => l.discount)).toEqual([150, 150, 0]); // 149.85 -> 150
    expect(totals.lines.filter((_, i) => couponApplies(coupon, lines[i]!)).reduce((a, l) => a + l.subtotal, 0)).toBe(1999);
    expect(totals.total).toBe(2999 - 300);
  });

  it('spreads a fixed coupon over covered lines, never beyond their subtotal', () => {
    const coupon = { type: 'fixed' as const, value: '1000', productIds: [], categoryIds: [] };
    const lines = [line('a', 3000), line('b', 1000)];
    const totals = priceLines(lines, withCoupon(coupon, lines));
    expect(totals.lines.map((l) => l.discount)).toEqual([750, 250]);
    const small = priceLines([line('a', 400)], withCoupon(coupon, [line('a', 400)]));
    expect(small.discountTotal).toBe(400);
    expect(small.total).toBe(0);
  });

  it('taxes the discounted amount, and shipping only where the rate says so', () => {
    const coupon = { type: 'percentage' as const, value: '10', productIds: [], categoryIds: [] };
    const ctx = withCoupon(coupon, [line('a', 1000)], { ...base, tax: flatTax('20', true), shipping: () => 500 });
    const totals = priceLines([line('a', 1000)], ctx);
    expect(totals).toMatchObject({ subtotal: 1000, discountTotal: 100, shippingTotal: 500, taxTotal: 180 + 100, total: 1000 - 100 + 500 + 280 });
  });

  it('with prices including tax, charges the listed price and shows the tax inside, per line, for discounts and shipping alike', () => {
    const shirt = priceLines([line('shirt', 2990)], { ...base, tax: flatTax('19', true, true) });
    expect(shirt.lines[0]).toMatchObject({ subtotal: 2990, taxRate: '19', tax: 477, total: 2990 });
    expect(shirt).toMatchObject({ pricesIncludeTax: true, taxTotal: 477, total: 2990 });

    const coupon = { type: 'percentage' as const, value: '10', productIds: [], categoryIds: [] };
    const withAll = priceLines([line('shirt', 2990)], withCoupon(coupon, [line('shirt', 2990)], { ...base, tax: flatTax('19', true, true), shipping: () => 490 }));
    // 2990 - 299 = 2691 holds 429.66 -> 430; shipping 490 holds 78.24 -> 78
    expect(withAll).toMatchObject({ discountTotal: 299, shippingTotal: 490, shippingTax: 78, shippingTaxRate: '19', taxTotal: 430 + 78, total: 2691 + 490 });
  });

  it("taxes each line at its class's rate: a region's rate beats the country's, a class without a rate pays the standard one, zero pays none", () => {
    const rates = [rate('standard', '19', null, true), rate('reduced', '7'), rate('standard', '16', 'BY'), rate('books', '5')];
    const tax = pricingTax(rates, { pricesIncludeTax: true }, { pricesIncludeTax: null });
    expect(tax.rateFor('reduced')).toBe('7');
    expect(tax.rateFor('standard')).toBe('16'); // the region row
    expect(tax.rateFor('food')).toBe('16'); // no rate of its own: standard's
    expect(tax.rateFor('zero')).toBe('0');
    expect(tax.shippingRate).toBeNull(); // the region's standard row does not tax shipping
    const lines = [line('shirt', 2990), line('book', 1500, 1, 'p-book', [], 'reduced'), line('export', 1000, 1, 'p-x', [], 'zero')];
    const totals = priceLines(lines, { ...base, tax: pricingTax(rates.slice(0, 2), { pricesIncludeTax: true }, { pricesIncludeTax: null }) });
    expect(totals.lines.map((l) => [l.taxRate, l.tax])).toEqual([
      ['19', 477],
      ['7', 98],
      ['0', 0],
    ]);
    expect(totals.total).toBe(2990 + 1500 + 1000);
  });

  it("follows the currency's pricesIncludeTax over the store's, and adds tax on top when prices exclude it", () => {
    const rates = [rate('standard', '19')];
    expect(pricingTax(rates, { pricesIncludeTax: true }, { pricesIncludeTax: false }).inclusive).toBe(false);
    expect(pricingTax(rates, { pricesIncludeTax: false }, { pricesIncludeTax: true }).inclusive).toBe(true);
    const totals = priceLines([line('shirt', 3200)], { ...base, tax: pricingTax(rates, { pricesIncludeTax: true }, { pricesIncludeTax: false }) });
    expect(totals).toMatchObject({ pricesIncludeTax: false, taxTotal: 608, total: 3808 });
    expect(pricingTax([], { pricesIncludeTax: false }, { pricesIncludeTax: null }).rateFor('standard')).toBeNull();
  });

  it('ships free from the threshold on the discounted subtotal, and nothing for an empty cart', () => {
    const ctx = { ...base, shipping: (sub: number) => methodPrice({ type: 'flat', amount: 500 }, 5000, { weight: 0, discountedSubtotal: sub }, (a) => a)! };
    expect(priceLines([line('a', 4999)], ctx).shippingTotal).toBe(500);
    expect(priceLines([line('a', 5000)], ctx).shippingTotal).toBe(0);
    expect(priceLines([], ctx)).toMatchObject({ shippingTotal: 0, total: 0 });
  });

  it('prices in another currency: converted unit prices, then everything in that currency', () => {
    const jpy = { code: 'JPY', minorUnits: 0, exchangeRate: '150.5' };
    const totals = priceLines([line('a', 1999, 2)], { ...base, currency: jpy, shipping: () => inCurrency(500, { defaultMinorUnits: 2, currency: jpy }) });
    expect(totals.lines[0]).toMatchObject({ unitPrice: 3008, subtotal: 6016 }); // 19.99 * 150.5 = 3008.495
    expect(totals).toMatchObject({ currency: 'JPY', shippingTotal: 753, total: 6769 });
  });
});
