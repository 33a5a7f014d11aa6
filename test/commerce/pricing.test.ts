import { describe, expect, it } from 'vitest';
import { inCurrency, type PricingContext, priceLines } from '../../src/lib/pricing';
import { methodPrice } from '../../src/modules/shipping/rates';
import { allocate, convertMinor, decimalText, percentOf } from '../../src/lib/rates';

const usd = { code: 'USD', minorUnits: 2, exchangeRate: '1' };
const base: PricingContext = { defaultMinorUnits: 2, currency: usd, coupon: null, tax: null, shipping: () => 0 };
const line = (key: string, unitPrice: number, quantity = 1, productId = `p-${key}`, categoryIds: string[] = []) => ({ key, productId, categoryIds, unitPrice, quantity });

describe('rate arithmetic', () => {
  it('rounds percentages half-up, exactly', () => {
    expect(percentOf(1999, '19')).toBe(380); // 379.81
    expect(percentOf(250, '10')).toBe(25);
    expect(percentOf(5, '10')).toBe(1); // 0.5 rounds up
    expect(percentOf(4, '12.5')).toBe(1); // 0.5 rounds up
    expect(percentOf(3, '12.5')).toBe(0); // 0.375
    expect(percentOf(1000, '8.875')).toBe(89); // 88.75
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
    const totals = priceLines([line('a', 1999, 3), line('b', 500)], { ...base, tax: { rate: '8.875', shippingTaxable: false } });
    expect(totals.lines.map((l) => l.subtotal)).toEqual([5997, 500]);
    expect(totals.lines.map((l) => l.tax)).toEqual([532, 44]); // 532.23, 44.375
    expect(totals).toMatchObject({ subtotal: 6497, discountTotal: 0, taxTotal: 576, shippingTotal: 0, total: 7073 });
  });

  it('applies a percentage coupon per line, only to the lines it covers', () => {
    const coupon = { type: 'percentage' as const, value: '15', productIds: ['p-a'], categoryIds: ['cat-x'] };
    const totals = priceLines([line('a', 999), line('b', 1000, 1, 'p-b', ['cat-x']), line('c', 1000)], { ...base, coupon });
    expect(totals.lines.map((l) => l.discount)).toEqual([150, 150, 0]); // 149.85 -> 150
    expect(totals.eligibleSubtotal).toBe(1999);
    expect(totals.total).toBe(2999 - 300);
  });

  it('spreads a fixed coupon over covered lines, never beyond their subtotal', () => {
    const coupon = { type: 'fixed' as const, value: '1000', productIds: [], categoryIds: [] };
    const totals = priceLines([line('a', 3000), line('b', 1000)], { ...base, coupon });
    expect(totals.lines.map((l) => l.discount)).toEqual([750, 250]);
    const small = priceLines([line('a', 400)], { ...base, coupon });
    expect(small.discountTotal).toBe(400);
    expect(small.total).toBe(0);
  });

  it('taxes the discounted amount, and shipping only where the rate says so', () => {
    const coupon = { type: 'percentage' as const, value: '10', productIds: [], categoryIds: [] };
    const ctx = { ...base, coupon, tax: { rate: '20', shippingTaxable: true }, shipping: () => 500 };
    const totals = priceLines([line('a', 1000)], ctx);
    expect(totals).toMatchObject({ subtotal: 1000, discountTotal: 100, shippingTotal: 500, taxTotal: 180 + 100, total: 1000 - 100 + 500 + 280 });
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
