import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { currencies, shippingMethods } from '../../src/db/schema';
import { adminKey, api, createProduct, db, expectError, uid } from '../helpers';

/**
 * A shipping method's own rates per currency (docs/api.md, Shipping): a EUR cart is charged the
 * shop's €4.90 and ships free from its own €50, a GBP cart without an entry converts the default
 * rate and threshold; an order keeps the charge it was placed with.
 */

let key: string;
let zone: string;
/** 20.00 USD: 18.40 EUR (rate 0.92), 15.80 GBP (rate 0.79). */
let variant: string;
const ZONES = '/api/settings/shipping-zones';
const VIENNA = { line1: 'Stephansplatz 1', city: 'Wien', postalCode: '1010', country: 'AT' };

const staff = (path: string, method: string, json?: unknown) => api(path, { method, key, json });
const fieldsOf = (res: { body: any }) => res.body.error.details.map((d: { field: string }) => d.field).sort();
type Guest = { id: string; token: string };
const call = (cart: Guest, path: string, method = 'GET', json?: unknown) => api(`/api/carts/${cart.id}${path}`, { method, json, headers: { 'X-Cart-Token': cart.token } });
async function cartIn(currency: string, quantity: number): Promise<Guest> {
  const created = await api('/api/carts', { method: 'POST', json: { currency, email: `ship-${uid()}@example.test` } });
  const cart = { id: created.body.data.id, token: created.body.data.token };
  expect((await call(cart, '/lines', 'POST', { variantId: variant, quantity })).status).toBe(200);
  expect((await call(cart, '', 'PATCH', { shippingAddress: VIENNA })).status).toBe(200);
  return cart;
}
const optionsOf = async (cart: Guest) => (await call(cart, '/shipping-options')).body.data.map((o: { name: string; amount: number }) => [o.name, o.amount]);

let post: string;
beforeAll(async () => {
  key = await adminKey();
  await db()
    .insert(currencies)
    .values([
      { code: 'EUR', name: 'Euro', symbol: '€', minorUnits: 2, exchangeRate: '0.92' },
      { code: 'GBP', name: 'Pound', symbol: '£', minorUnits: 2, exchangeRate: '0.79' },
    ])
    .onConflictDoNothing();
  zone = (await staff(ZONES, 'POST', { name: 'Austria', countries: ['AT'] })).body.data.id;
  const created = await staff(`${ZONES}/${zone}/methods`, 'POST', {
    name: 'Post',
    rate: { type: 'flat', amount: 5 },
    freeAbove: 100,
    currencyRates: [{ currency: 'eur', rate: { type: 'flat', amount: 4.9 }, freeAbove: 50 }],
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  post = created.body.data.id;
  variant = (await createProduct(key, { price: 20, variants: [{ price: 20, stock: 1000 }] })).variants[0].id;
});

describe('shipping methods with rates per currency', () => {
  it('stores each rate in minor units of its currency and shows it in major units, by currency', async () => {
    const created = await staff(`${ZONES}/${zone}/methods`, 'POST', {
      name: 'Bands',
      active: false,
      rate: { type: 'flat', amount: 5 },
      currencyRates: [
        {
          currency: 'GBP',
          rate: {
            type: 'weight',
            bands: [
              { upTo: 2, amount: 3.95 },
              { upTo: null, amount: 9.5 },
            ],
          },
        },
        {
          currency: 'EUR',
          rate: {
            type: 'price',
            bands: [
              { from: 0, amount: 6 },
              { from: 30, amount: 2.5 },
            ],
          },
          freeAbove: 80,
        },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const shown = [
      {
        currency: 'EUR',
        rate: {
          type: 'price',
          bands: [
            { from: 0, amount: 6 },
            { from: 30, amount: 2.5 },
          ],
        },
        freeAbove: 80,
      },
      {
        currency: 'GBP',
        rate: {
          type: 'weight',
          bands: [
            { upTo: 2, amount: 3.95 },
            { upTo: null, amount: 9.5 },
          ],
        },
        freeAbove: null,
      },
    ];
    expect(created.body.data.currencyRates).toEqual(shown);
    expect((await staff(`${ZONES}/${zone}/methods/${created.body.data.id}`, 'GET')).body.data.currencyRates).toEqual(shown);
    const [row] = await db().select().from(shippingMethods).where(eq(shippingMethods.id, created.body.data.id));
    expect(row!.currencyRates).toEqual({
      EUR: {
        rate: {
          type: 'price',
          bands: [
            { from: 0, amount: 600 },
            { from: 3000, amount: 250 },
          ],
        },
        freeAbove: 8000,
      },
      GBP: {
        rate: {
          type: 'weight',
          bands: [
            { upTo: 2, amount: 395 },
            { upTo: null, amount: 950 },
          ],
        },
        freeAbove: null,
      },
    });
  });

  it("validates each rate as the default rate, in its currency's decimals, for currencies of the store other than the default, once each", async () => {
    const bad = await staff(`${ZONES}/${zone}/methods/${post}`, 'PATCH', {
      currencyRates: [
        { currency: 'EUR', rate: { type: 'flat', amount: 4.999 }, freeAbove: 0.001 },
        { currency: 'USD', rate: { type: 'flat', amount: 5 } },
        { currency: 'XTS', rate: { type: 'flat', amount: 5 } },
      ],
    });
    expectError(bad, 422, 'VALIDATION_ERROR');
    expect(fieldsOf(bad)).toEqual(['currencyRates.0.freeAbove', 'currencyRates.0.rate.amount', 'currencyRates.1.currency', 'currencyRates.2.currency']);
    const bands = await staff(`${ZONES}/${zone}/methods/${post}`, 'PATCH', {
      currencyRates: [
        {
          currency: 'GBP',
          rate: {
            type: 'price',
            bands: [
              { from: 10, amount: 1 },
              { from: 5, amount: 2 },
            ],
          },
        },
      ],
    });
    expect(fieldsOf(bands)).toEqual(['currencyRates.0.rate.bands.1.from']);
    const twice = await staff(`${ZONES}/${zone}/methods/${post}`, 'PATCH', {
      currencyRates: [
        { currency: 'GBP', rate: { type: 'flat', amount: 1 } },
        { currency: 'gbp', rate: { type: 'flat', amount: 2 } },
      ],
    });
    expect(fieldsOf(twice)).toEqual(['currencyRates.1.currency']);
    // Nothing was written.
    expect((await staff(`${ZONES}/${zone}/methods/${post}`, 'GET')).body.data.currencyRates).toEqual([{ currency: 'EUR', rate: { type: 'flat', amount: 4.9 }, freeAbove: 50 }]);
  });

  it('charges a EUR cart the own rate and ships it free from the own threshold; a GBP cart converts the default ones', async () => {
    expect(await optionsOf(await cartIn('EUR', 1))).toEqual([['Post', 4.9]]);
    // 55.20 EUR: free from the own 50 (the default 100 USD converted would be 92 EUR).
    expect(await optionsOf(await cartIn('EUR', 3))).toEqual([['Post', 0]]);
    expect(await optionsOf(await cartIn('GBP', 1))).toEqual([['Post', 3.95]]);
    // 79.00 GBP: the default threshold converted (100 USD is 79 GBP).
    expect(await optionsOf(await cartIn('GBP', 5))).toEqual([['Post', 0]]);
    expect((await call(await cartIn('EUR', 1), '')).body.data.totals).toMatchObject({ subtotal: 18.4, shippingTotal: 4.9, total: 23.3 });
  });

  it('keeps the charge an order was placed with when the own rate changes, and converts again once it is removed', async () => {
    const cart = await cartIn('EUR', 1);
    const placed = await call(cart, '/checkout', 'POST');
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    expect(placed.body.data).toMatchObject({ currency: 'EUR', shippingTotal: 4.9, shippingMethod: { id: post, amount: 4.9 } });
    try {
      const changed = await staff(`${ZONES}/${zone}/methods/${post}`, 'PATCH', { currencyRates: [{ currency: 'EUR', rate: { type: 'flat', amount: 6 } }] });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      const read = await api(`/api/orders/${placed.body.data.id}`, { key });
      expect(read.body.data).toMatchObject({ shippingTotal: 4.9, total: placed.body.data.total, shippingMethod: { amount: 4.9 } });
      expect(await optionsOf(await cartIn('EUR', 1))).toEqual([['Post', 6]]);
      expect((await staff(`${ZONES}/${zone}/methods/${post}`, 'PATCH', { currencyRates: [] })).body.data.currencyRates).toEqual([]);
      expect(await optionsOf(await cartIn('EUR', 1))).toEqual([['Post', 4.6]]);
    } finally {
      await staff(`${ZONES}/${zone}/methods/${post}`, 'PATCH', { currencyRates: [{ currency: 'EUR', rate: { type: 'flat', amount: 4.9 }, freeAbove: 50 }] });
    }
  });
});
