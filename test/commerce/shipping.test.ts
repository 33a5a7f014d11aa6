import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { events, shippingMethods, shippingZones } from '../../src/db/schema';
import { countedOrder } from './order-fixtures';
import { adminKey, api, createProduct, db, expectError, uid } from '../helpers';

/**
 * Shipping by zone, weight and the shopper's choice (docs/api.md, Shipping): a German zone with two
 * DHL methods, one priced by weight and one flat, beside the migrated rest-of-world zone
 * ("Everywhere", "Standard" at 0). Carts list and choose; checkout and orders charge the choice
 * (or the cheapest) and keep it as it was.
 */

let key: string;
let deZone: string;
let paket: string;
let express: string;
/** 1.5 kg at 20.00, and 10 kg at 10.00. */
let light: string;
let heavy: string;
const ZONES = '/api/settings/shipping-zones';
const BERLIN = { line1: 'Unter den Linden 1', city: 'Berlin', postalCode: '10117', country: 'DE' };
const PARIS = { line1: '1 rue de Rivoli', city: 'Paris', postalCode: '75001', country: 'FR' };

const staff = (path: string, method: string, json?: unknown) => api(path, { method, key, json });
type Guest = { id: string; token: string };
const call = (cart: Guest, path: string, method = 'GET', json?: unknown) => api(`/api/carts/${cart.id}${path}`, { method, json, headers: { 'X-Cart-Token': cart.token } });
async function guestCart(lines: [string, number][], body: Record<string, unknown> = {}): Promise<Guest> {
  const { id, token } = (await api('/api/carts', { method: 'POST', json: { email: `ship-${uid()}@example.test` } })).body.data;
  for (const [variantId, quantity] of lines) expect((await call({ id, token }, '/lines', 'POST', { variantId, quantity })).status).toBe(200);
  if (Object.keys(body).length) expect((await call({ id, token }, '', 'PATCH', body)).status).toBe(200);
  return { id, token };
}
const optionsOf = async (cart: Guest) => (await call(cart, '/shipping-options')).body.data.map((o: { name: string; amount: number }) => [o.name, o.amount]);

beforeAll(async () => {
  key = await adminKey();
  deZone = (await staff(ZONES, 'POST', { name: 'Germany', countries: ['DE'] })).body.data.id;
  const paketBody = {
    name: 'DHL Paket',
    carrier: 'DHL',
    position: 1,
    minDeliveryDays: 1,
    maxDeliveryDays: 3,
    rate: {
      type: 'weight',
      bands: [
        { upTo: 2, amount: 4.99 },
        { upTo: 31.5, amount: 16.99 },
      ],
    },
  };
  paket = (await staff(`${ZONES}/${deZone}/methods`, 'POST', paketBody)).body.data.id;
  express = (await staff(`${ZONES}/${deZone}/methods`, 'POST', { name: 'DHL Express', carrier: 'DHL', position: 2, rate: { type: 'flat', amount: 12.9 } })).body.data.id;
  light = (await createProduct(key, { price: 20, variants: [{ price: 20, stock: 1000, weight: 1.5 }] })).variants[0].id;
  heavy = (await createProduct(key, { price: 10, variants: [{ price: 10, stock: 1000, weight: 10 }] })).variants[0].id;
});

describe('GET /api/carts/{id}/shipping-options', () => {
  it("lists the zone's methods priced by the cart's weight; the cart ships by the cheapest until one is chosen", async () => {
    const cart = await guestCart([[light, 1]], { shippingAddress: BERLIN });
    const res = await call(cart, '/shipping-options');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { id: paket, name: 'DHL Paket', carrier: 'DHL', minDeliveryDays: 1, maxDeliveryDays: 3, amount: 4.99 },
      { id: express, name: 'DHL Express', carrier: 'DHL', minDeliveryDays: null, maxDeliveryDays: null, amount: 12.9 },
    ]);
    const read = (await call(cart, '')).body.data;
    expect(read.shippingMethod).toEqual({ id: paket, name: 'DHL Paket', carrier: 'DHL', amount: 4.99 });
    expect(read.shippingMethodChosen).toBe(false);
    expect(read.totals).toMatchObject({ subtotal: 20, shippingTotal: 4.99, total: 24.99 });
  });

  it('prices heavier carts by the next band, and leaves out a method whose bands the cart outweighs', async () => {
    expect(
      await optionsOf(
        await guestCart(
          [
            [light, 1],
            [heavy, 2],
          ],
          { shippingAddress: BERLIN },
        ),
      ),
    ).toEqual([
      ['DHL Paket', 16.99],
      ['DHL Express', 12.9],
    ]);
    const tooHeavy = await guestCart([[heavy, 4]], { shippingAddress: BERLIN });
    expect(await optionsOf(tooHeavy)).toEqual([['DHL Express', 12.9]]);
    expect((await call(tooHeavy, '')).body.data.shippingMethod.name).toBe('DHL Express');
  });

  it('offers the rest-of-world methods elsewhere, and answers 409 for a cart without an address', async () => {
    expect(await optionsOf(await guestCart([[light, 1]], { shippingAddress: PARIS }))).toEqual([['Standard', 0]]);
    const noAddress = await guestCart([[light, 1]]);
    const res = await call(noAddress, '/shipping-options');
    expectError(res, 409, 'CONFLICT');
    expect(res.body.error.details[0]).toMatchObject({ field: 'shippingAddress', code: 'required' });
    // Its totals are an estimate by the rest-of-world zone.
    expect((await call(noAddress, '')).body.data.shippingMethod).toMatchObject({ id: 'smeth_standard', amount: 0 });
  });

  it('is as private as the cart: 404 without its token', async () => {
    const cart = await guestCart([[light, 1]], { shippingAddress: BERLIN });
    expectError(await api(`/api/carts/${cart.id}/shipping-options`), 404, 'NOT_FOUND');
  });
});

describe('choosing a method', () => {
  it('charges the chosen method in the cart and the order, and the order keeps it (and order.placed says it)', async () => {
    const cart = await guestCart([[light, 1]], { shippingAddress: BERLIN });
    const chosen = await call(cart, '', 'PATCH', { shippingMethodId: express });
    expect(chosen.status, JSON.stringify(chosen.body)).toBe(200);
    expect(chosen.body.data).toMatchObject({
      shippingMethod: { id: express, name: 'DHL Express', amount: 12.9 },
      shippingMethodChosen: true,
      totals: { shippingTotal: 12.9, total: 32.9 },
    });
    const placed = await call(cart, '/checkout', 'POST');
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    const order = placed.body.data;
    expect(order).toMatchObject({ shippingTotal: 12.9, total: 32.9, shippingMethod: { id: express, name: 'DHL Express', carrier: 'DHL', amount: 12.9 } });
    const [event] = await db()
      .select()
      .from(events)
      .where(eq(events.type, 'order.placed'))
      .then((rows) => rows.filter((e) => e.data.orderId === order.id));
    expect(event!.data.shippingMethod).toEqual({ id: express, name: 'DHL Express', carrier: 'DHL', amount: 12.9 });

    // The method changes and is renamed; the order shows what it was placed with.
    await staff(`${ZONES}/${deZone}/methods/${express}`, 'PATCH', { name: 'DHL Express Plus', rate: { type: 'flat', amount: 99 } });
    try {
      const read = await api(`/api/orders/${order.id}`, { key });
      expect(read.body.data).toMatchObject({ shippingTotal: 12.9, total: 32.9, shippingMethod: { id: express, name: 'DHL Express', amount: 12.9 } });
    } finally {
      await staff(`${ZONES}/${deZone}/methods/${express}`, 'PATCH', { name: 'DHL Express', rate: { type: 'flat', amount: 12.9 } });
    }
  });

  it('goes back to the cheapest with null, and refuses a method that does not serve the cart (422 SHIPPING_UNAVAILABLE)', async () => {
    const cart = await guestCart([[light, 1]], { shippingAddress: BERLIN, shippingMethodId: express });
    expect((await call(cart, '', 'PATCH', { shippingMethodId: null })).body.data.shippingMethod.id).toBe(paket);
    const wrong = await call(cart, '', 'PATCH', { shippingMethodId: 'smeth_standard' });
    expectError(wrong, 422, 'SHIPPING_UNAVAILABLE');
    expect(wrong.body.error.details[0].field).toBe('shippingMethodId');
    // Checked against the address given in the same request.
    const moved = await call(cart, '', 'PATCH', { shippingAddress: PARIS, shippingMethodId: 'smeth_standard' });
    expect(moved.body.data.shippingMethod.id).toBe('smeth_standard');
  });

  it('refuses at checkout a chosen method that stopped serving the cart; reading the cart drops it with a notice', async () => {
    const cart = await guestCart([[light, 1]], { shippingAddress: BERLIN, shippingMethodId: express });
    await staff(`${ZONES}/${deZone}/methods/${express}`, 'PATCH', { active: false });
    try {
      const refused = await call(cart, '/checkout', 'POST');
      expectError(refused, 422, 'SHIPPING_UNAVAILABLE');
      expect(refused.body.error.details[0].field).toBe('shippingMethodId');
      const read = (await call(cart, '')).body.data;
      expect(read.notices.map((n: { code: string }) => n.code)).toEqual(['shipping_method_removed']);
      expect(read).toMatchObject({ shippingMethod: { id: paket }, shippingMethodChosen: false });
      expect((await call(cart, '/checkout', 'POST')).body.data.shippingMethod.id).toBe(paket);
    } finally {
      await staff(`${ZONES}/${deZone}/methods/${express}`, 'PATCH', { active: true });
    }
  });
});

describe('free shipping and price bands', () => {
  it('ships free from freeAbove on the subtotal after discounts', async () => {
    await staff(`${ZONES}/${deZone}/methods/${paket}`, 'PATCH', { freeAbove: 50 });
    try {
      expect(await optionsOf(await guestCart([[light, 2]], { shippingAddress: BERLIN }))).toEqual([
        ['DHL Paket', 16.99],
        ['DHL Express', 12.9],
      ]);
      const cart = await guestCart([[light, 3]], { shippingAddress: BERLIN });
      expect(await optionsOf(cart)).toEqual([
        ['DHL Paket', 0],
        ['DHL Express', 12.9],
      ]);
      expect((await call(cart, '')).body.data.totals).toMatchObject({ subtotal: 60, shippingTotal: 0, total: 60 });
    } finally {
      await staff(`${ZONES}/${deZone}/methods/${paket}`, 'PATCH', { freeAbove: null });
    }
  });

  it('prices by the band of the subtotal, in the cart currency', async () => {
    const at = (await staff(ZONES, 'POST', { name: 'Austria', countries: ['AT'] })).body.data.id;
    await staff(`${ZONES}/${at}/methods`, 'POST', {
      name: 'Post AT',
      rate: {
        type: 'price',
        bands: [
          { from: 0, amount: 9 },
          { from: 50, amount: 4 },
        ],
      },
    });
    const vienna = { line1: 'Ring 1', city: 'Wien', postalCode: '1010', country: 'AT' };
    expect(await optionsOf(await guestCart([[light, 2]], { shippingAddress: vienna }))).toEqual([['Post AT', 9]]);
    expect(await optionsOf(await guestCart([[light, 3]], { shippingAddress: vienna }))).toEqual([['Post AT', 4]]);
  });
});

describe('orders', () => {
  it('POST /api/orders takes a shippingMethodId, else charges the cheapest; a method that does not serve it is 422', async () => {
    const order = (json: Record<string, unknown>) =>
      api('/api/orders', { method: 'POST', key, json: { email: `o-${uid()}@example.test`, lines: [{ variantId: light, quantity: 1 }], shippingAddress: BERLIN, ...json } });
    expect((await order({})).body.data).toMatchObject({ shippingTotal: 4.99, shippingMethod: { id: paket } });
    expect((await order({ shippingMethodId: express })).body.data).toMatchObject({ shippingTotal: 12.9, total: 32.9, shippingMethod: { id: express } });
    const refused = await order({ shippingMethodId: 'smeth_standard' });
    expectError(refused, 422, 'SHIPPING_UNAVAILABLE');
    expect(refused.body.error.details[0].field).toBe('shippingMethodId');
  });

  it('refuses an address no zone serves at checkout and at POST /api/orders, after an empty list of options', async () => {
    // Without the rest-of-world zone, Japan is served by no zone.
    await staff(`${ZONES}/szone_everywhere`, 'PATCH', { restOfWorld: false, countries: ['FR'] });
    try {
      const tokyo = { line1: '1-1 Chiyoda', city: 'Tokyo', postalCode: '100-0001', country: 'JP' };
      const cart = await guestCart([[light, 1]], { shippingAddress: tokyo });
      expect((await call(cart, '/shipping-options')).body.data).toEqual([]);
      expect((await call(cart, '')).body.data).toMatchObject({ shippingMethod: null, totals: { shippingTotal: 0 } });
      const refused = await call(cart, '/checkout', 'POST');
      expectError(refused, 422, 'SHIPPING_UNAVAILABLE');
      expect(refused.body.error.details[0].field).toBe('shippingAddress');
      const direct = await api('/api/orders', {
        method: 'POST',
        key,
        json: { email: `jp-${uid()}@example.test`, lines: [{ variantId: light, quantity: 1 }], shippingAddress: tokyo },
      });
      expectError(direct, 422, 'SHIPPING_UNAVAILABLE');
      expect(direct.body.error.details[0].field).toBe('shippingAddress');
    } finally {
      await staff(`${ZONES}/szone_everywhere`, 'PATCH', { countries: [], restOfWorld: true });
    }
  });

  it("a shipment names the order's method by default, or another existing one", async () => {
    const placed = await api('/api/orders', {
      method: 'POST',
      key,
      json: { email: `s-${uid()}@example.test`, lines: [{ variantId: light, quantity: 2 }], shippingAddress: BERLIN },
    });
    const id = placed.body.data.id;
    await staff(`/api/orders/${id}`, 'PATCH', { status: 'processing' });
    const first = await staff(`/api/orders/${id}/shipments`, 'POST', { lines: [{ orderLineId: placed.body.data.lines[0].id, quantity: 1 }] });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    // 3 kg: DHL Express (12.90) is cheaper than DHL Paket (16.99).
    expect(first.body.data.shippingMethodId).toBe(express);
    const unknown = await staff(`/api/orders/${id}/shipments`, 'POST', { shippingMethodId: 'smeth_nope' });
    expectError(unknown, 422, 'VALIDATION_ERROR');
    expect(unknown.body.error.details[0].field).toBe('shippingMethodId');
    const other = await staff(`/api/orders/${id}/shipments`, 'POST', { shippingMethodId: paket });
    expect(other.body.data.shippingMethodId).toBe(paket);
  });

  it('re-prices an order from kept inputs after a zone change (one round trip before it, never the old rate after)', async () => {
    const hamburg = { line1: 'Jungfernstieg 1', city: 'Hamburg', postalCode: '20354', country: 'DE' };
    const o = countedOrder({ shippingAddress: hamburg });
    const place = () => o.place(light);
    await place();
    o.reset();
    expect((await place()).order.shippingTotal).toBe(499);
    expect(o.calls()).toBe(1);
    // A zone for Hamburg's postcodes, with a cheaper courier, now serves the address.
    const [zone] = await db()
      .insert(shippingZones)
      .values({ id: `szone_${uid()}`, name: 'Hamburg', countries: ['DE'], postcodes: ['20*'] })
      .returning();
    await db()
      .insert(shippingMethods)
      .values({ id: `smeth_${uid()}`, zoneId: zone!.id, name: 'Courier', rate: { type: 'flat', amount: 250 } });
    o.reset();
    const after = await place();
    expect(after.order).toMatchObject({ shippingTotal: 250, shippingMethodName: 'Courier' });
    expect(o.calls()).toBe(3);
  });
});
