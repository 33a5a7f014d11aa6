import { beforeAll, describe, expect, it } from 'vitest';
import { currencies } from '../../src/db/schema';
import { adminKey, api, createProduct, db, uid } from '../helpers';
import { countedOrder } from './order-fixtures';

// A variant's own EUR price is what a cart and an order in EUR charge, instead of converting its
// dollar price (EUR at 0.5 per USD here). An order keeps the price it was placed at.

let key: string;
beforeAll(async () => {
  key = await adminKey();
  await db().insert(currencies).values({ code: 'EUR', name: 'Euro', symbol: '€', minorUnits: 2, exchangeRate: '0.5' });
});

const newCart = async (json: Record<string, unknown>) => {
  const res = await api('/api/carts', { method: 'POST', json });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.data.id as string, token: res.body.data.token as string };
};
const addLine = (cart: { id: string; token: string }, variantId: string, quantity: number) =>
  api(`/api/carts/${cart.id}/lines`, { method: 'POST', json: { variantId, quantity }, headers: { 'X-Cart-Token': cart.token } });
const setEuroPrice = (productId: string, amount: number) => api(`/api/products/${productId}`, { method: 'PATCH', key, json: { prices: [{ currency: 'EUR', amount }] } });

describe('own prices per currency in carts and orders', () => {
  it("a cart in EUR charges the variant's own EUR price, and converts a variant without one", async () => {
    const own = await createProduct(key, { price: 20, stock: 10, prices: [{ currency: 'EUR', amount: 12.34 }] });
    const converted = await createProduct(key, { price: 20, stock: 10 });
    const cart = await newCart({ currency: 'EUR' });
    await addLine(cart, own.variants[0].id, 2);
    const res = await addLine(cart, converted.variants[0].id, 1);
    expect(res.body.data.lines.map((l: { unitPrice: number; subtotal: number }) => [l.unitPrice, l.subtotal])).toEqual([
      [12.34, 24.68],
      [10, 10],
    ]);
    expect(res.body.data.totals.subtotal).toBe(34.68);
    // In dollars the own EUR price plays no part.
    const usd = await newCart({});
    expect((await addLine(usd, own.variants[0].id, 1)).body.data.lines[0].unitPrice).toBe(20);
  });

  it('an order in EUR is placed at the own price and keeps it after the price changes; a new quote (kept inputs or not) takes the new one', async () => {
    const product = await createProduct(key, { price: 20, stock: 50, prices: [{ currency: 'EUR', amount: 12.34 }] });
    const variantId = product.variants[0].id;
    const o = countedOrder({ currency: 'EUR' });
    const placed = await o.place(variantId, 2);
    expect(placed.order.currency).toBe('EUR');
    expect(placed.lines[0]).toMatchObject({ unitPrice: 1234, quantity: 2 });
    // Placed again from the inputs this isolate kept: one round trip, still the own price.
    o.reset();
    expect((await o.place(variantId)).lines[0]).toMatchObject({ unitPrice: 1234 });
    expect(o.calls()).toBe(1);

    expect((await setEuroPrice(product.id, 15)).status).toBe(200);
    const read = await api(`/api/orders/${placed.order.id}`, { key });
    expect(read.status).toBe(200);
    expect(read.body.data.lines[0]).toMatchObject({ unitPrice: 12.34, quantity: 2 });
    expect(read.body.data.subtotal).toBe(24.68);

    // The kept inputs are stale now (the variant's prices moved quote_version): priced afresh at 15.00.
    o.reset();
    const after = await o.place(variantId, 1, `after-${uid()}@example.test`);
    expect(after.lines[0]).toMatchObject({ unitPrice: 1500 });
    expect(o.calls()).toBe(3);
    const cart = await newCart({ currency: 'EUR' });
    expect((await addLine(cart, variantId, 1)).body.data.lines[0].unitPrice).toBe(15);
  });
});
