import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { currencies, promotions } from '../../src/db/schema';
import { adminKey, api, createProduct, db, expectError, uid } from '../helpers';

/**
 * A fixed coupon's own amounts per currency (docs/api.md, Coupons): a EUR cart is discounted by the
 * shop's €5 and needs its own minimum, not the default's converted; a GBP cart without an entry
 * converts as before; an order keeps the discount it was placed with.
 */

let key: string;
/** 30.00 USD: 27.60 EUR (rate 0.92), 23.70 GBP (rate 0.79). */
let variant: string;
const BERLIN = { line1: 'Unter den Linden 1', city: 'Berlin', postalCode: '10117', country: 'DE' };

const code = () => `CA-${uid()}`.toUpperCase();
const addCoupon = (json: Record<string, unknown>) => api('/api/coupons', { method: 'POST', key, json });
const patchCoupon = (id: string, json: unknown) => api(`/api/coupons/${id}`, { method: 'PATCH', key, json });
const fieldsOf = (res: { body: any }) => res.body.error.details.map((d: { field: string }) => d.field).sort();

type Guest = { id: string; token: string };
const call = (cart: Guest, path: string, method = 'GET', json?: unknown) => api(`/api/carts/${cart.id}${path}`, { method, json, headers: { 'X-Cart-Token': cart.token } });
async function cartIn(currency: string, quantity: number): Promise<Guest> {
  const created = await api('/api/carts', { method: 'POST', json: { currency, email: `coupon-${uid()}@example.test` } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const cart = { id: created.body.data.id, token: created.body.data.token };
  expect((await call(cart, '', 'PATCH', { shippingAddress: BERLIN })).status).toBe(200);
  expect((await call(cart, '/lines', 'POST', { variantId: variant, quantity })).status).toBe(200);
  return cart;
}

beforeAll(async () => {
  key = await adminKey();
  await db()
    .insert(currencies)
    .values([
      { code: 'EUR', name: 'Euro', symbol: '€', minorUnits: 2, exchangeRate: '0.92' },
      { code: 'GBP', name: 'Pound', symbol: '£', minorUnits: 2, exchangeRate: '0.79' },
      { code: 'JPY', name: 'Yen', symbol: '¥', minorUnits: 0, exchangeRate: '150.5' },
    ])
    .onConflictDoNothing();
  variant = (await createProduct(key, { price: 30, variants: [{ price: 30, stock: 1000 }] })).variants[0].id;
});

describe('a coupon with amounts per currency', () => {
  it('stores each amount in minor units of its currency and shows it in major units, by currency', async () => {
    const res = await addCoupon({
      code: code(),
      type: 'fixed',
      value: 10,
      minSubtotal: 20,
      currencyAmounts: [
        { currency: 'jpy', value: 1500 },
        { currency: 'EUR', value: 5, minSubtotal: 40 },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.currencyAmounts).toEqual([
      { currency: 'EUR', value: 5, minSubtotal: 40 },
      { currency: 'JPY', value: 1500, minSubtotal: null },
    ]);
    const [row] = await db().select().from(promotions).where(eq(promotions.id, res.body.data.id));
    expect(row!.currencyAmounts).toEqual({ EUR: { value: 500, minSubtotal: 4000 }, JPY: { value: 1500, minSubtotal: null } });
    expect((await api(`/api/coupons/${res.body.data.id}`, { key })).body.data.currencyAmounts).toEqual(res.body.data.currencyAmounts);
  });

  it('refuses amounts with more decimals than their currency, the default currency, one the store lacks, a repeat, and any on a percentage coupon', async () => {
    const bad = await addCoupon({
      code: code(),
      type: 'fixed',
      value: 10,
      currencyAmounts: [
        { currency: 'EUR', value: 5.001, minSubtotal: 1.5 },
        { currency: 'JPY', value: 10.5 },
        { currency: 'USD', value: 5 },
        { currency: 'XTS', value: 5 },
      ],
    });
    expectError(bad, 422, 'VALIDATION_ERROR');
    expect(fieldsOf(bad)).toEqual(['currencyAmounts.0.value', 'currencyAmounts.1.value', 'currencyAmounts.2.currency', 'currencyAmounts.3.currency']);
    expect(bad.body.error.details.find((d: { field: string }) => d.field === 'currencyAmounts.1.value').message).toMatch(/at most 0 decimals \(the minor units of JPY\)/);
    const twice = await addCoupon({
      code: code(),
      type: 'fixed',
      value: 10,
      currencyAmounts: [
        { currency: 'EUR', value: 5 },
        { currency: 'eur', value: 6 },
      ],
    });
    expect(fieldsOf(twice)).toEqual(['currencyAmounts.1.currency']);
    const percentage = await addCoupon({ code: code(), type: 'percentage', value: 10, currencyAmounts: [{ currency: 'EUR', value: 5 }] });
    expect(fieldsOf(percentage)).toEqual(['currencyAmounts']);
  });

  it('needs the amounts emptied when a fixed coupon becomes a percentage', async () => {
    const id = (await addCoupon({ code: code(), type: 'fixed', value: 10, currencyAmounts: [{ currency: 'EUR', value: 5 }] })).body.data.id;
    const refused = await patchCoupon(id, { type: 'percentage', value: 10 });
    expectError(refused, 422, 'VALIDATION_ERROR');
    expect(fieldsOf(refused)).toEqual(['currencyAmounts']);
    const changed = await patchCoupon(id, { type: 'percentage', value: 10, currencyAmounts: [] });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.data).toMatchObject({ type: 'percentage', value: 10, currencyAmounts: [] });
  });

  it("discounts a EUR cart by the own amount, not the default's converted, and checks the own minimum subtotal", async () => {
    const c = code();
    await addCoupon({ code: c, type: 'fixed', value: 10, minSubtotal: 20, currencyAmounts: [{ currency: 'EUR', value: 5, minSubtotal: 40 }] });
    // One unit is 27.60 EUR: above the default minimum converted (18.40) but below the own 40.
    const small = await cartIn('EUR', 1);
    const refused = await call(small, '/coupon', 'POST', { code: c });
    expectError(refused, 409, 'CONFLICT');
    expect(refused.body.error.message).toBe(`Coupon '${c}' needs a subtotal of at least 40 EUR`);

    const big = await cartIn('EUR', 2);
    const applied = await call(big, '/coupon', 'POST', { code: c });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body.data.totals).toMatchObject({ subtotal: 55.2, discountTotal: 5 });
  });

  it('converts the default amount and minimum for a currency without its own', async () => {
    const c = code();
    await addCoupon({ code: c, type: 'fixed', value: 10, minSubtotal: 30, currencyAmounts: [{ currency: 'EUR', value: 5 }] });
    // 23.70 GBP is below 30 USD converted (23.70 is exactly it: refused only below).
    const gbp = await cartIn('GBP', 1);
    const applied = await call(gbp, '/coupon', 'POST', { code: c });
    expect(applied.status, JSON.stringify(applied.body)).toBe(200);
    expect(applied.body.data.totals).toMatchObject({ subtotal: 23.7, discountTotal: 7.9 });
    // An own amount without its own minimum keeps the default minimum, converted (27.60 EUR for 30 USD).
    const eur = await cartIn('EUR', 1);
    expect((await call(eur, '/coupon', 'POST', { code: c })).body.data.totals).toMatchObject({ subtotal: 27.6, discountTotal: 5 });
    await patchCoupon(c, { minSubtotal: 30.01 });
    expectError(await call(await cartIn('EUR', 1), '/coupon', 'POST', { code: c }), 409, 'CONFLICT');
  });

  it('leaves an order placed with the own amount unchanged when the amount changes later', async () => {
    const c = code();
    const coupon = (await addCoupon({ code: c, type: 'fixed', value: 10, currencyAmounts: [{ currency: 'EUR', value: 5 }] })).body.data;
    const cart = await cartIn('EUR', 1);
    expect((await call(cart, '/coupon', 'POST', { code: c })).status).toBe(200);
    const placed = await call(cart, '/checkout', 'POST');
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    expect(placed.body.data).toMatchObject({ currency: 'EUR', subtotal: 27.6, discountTotal: 5 });

    const changed = await patchCoupon(coupon.id, { currencyAmounts: [{ currency: 'EUR', value: 8 }] });
    expect(changed.body.data.currencyAmounts).toEqual([{ currency: 'EUR', value: 8, minSubtotal: null }]);
    const read = await api(`/api/orders/${placed.body.data.id}`, { key });
    expect(read.body.data).toMatchObject({ subtotal: 27.6, discountTotal: 5, total: placed.body.data.total });
    // A new cart gets the new amount.
    const next = await cartIn('EUR', 1);
    expect((await call(next, '/coupon', 'POST', { code: c })).body.data.totals.discountTotal).toBe(8);
  });
});
