import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { events } from '../../src/db/schema';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service';
import { placeOrder } from '../../src/modules/orders/place-order';
import { adminKey, api, createProduct, db, expectError, insertUser, insertVendorUser, uid } from '../helpers';

const adjust = (key: string, variantId: string, json: Record<string, unknown>) => api(`/api/inventory/${variantId}/adjustments`, { method: 'POST', key, json });
const lowEvents = async (variantId: string) => (await db().select().from(events).where(eq(events.type, 'inventory.low'))).filter((e) => e.data.variantId === variantId);

describe('inventory', () => {
  it('lists stock per variant with the threshold in force, and filters the low ones', async () => {
    const key = await adminKey();
    const tag = uid();
    const product = await createProduct(key, {
      name: `Socks ${tag}`,
      lowStockThreshold: 4,
      variants: [
        { sku: `SOCK-${tag}-S`, options: { size: 'S' }, stock: 2 },
        { sku: `SOCK-${tag}-M`, options: { size: 'M' }, stock: 4 },
        { sku: `SOCK-${tag}-L`, options: { size: 'L' }, stock: 9 },
        { sku: `SOCK-${tag}-XL`, options: { size: 'XL' }, stock: 9, lowStockThreshold: 10 },
      ],
    });
    const all = await api(`/api/inventory?product=${product.id}&sort=sku`, { key });
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(all.body.pagination.total).toBe(4);
    expect(all.body.data.find((i: any) => i.sku.endsWith('-S'))).toEqual({
      variantId: product.variants[0].id,
      productId: product.id,
      productName: `Socks ${tag}`,
      name: null,
      sku: `SOCK-${tag}-S`,
      options: { size: 'S' },
      stock: 2,
      lowStockThreshold: 4,
      low: true,
    });
    const low = await api(`/api/inventory?q=${tag}&low=true&sort=stock:desc,sku`, { key });
    expect(low.body.data.map((i: any) => [i.sku.split('-').pop(), i.lowStockThreshold])).toEqual([
      ['XL', 10],
      ['M', 4],
      ['S', 4],
    ]);
    const notLow = await api(`/api/inventory?q=${tag}&low=false&fields=sku,low`, { key });
    expect(notLow.body.data).toEqual([{ sku: `SOCK-${tag}-L`, low: false }]);
    // The store's threshold (5) applies when neither the variant nor the product sets one.
    const plain = await createProduct(key, { stock: 5 });
    expect((await api(`/api/inventory?product=${plain.id}`, { key })).body.data[0]).toMatchObject({ lowStockThreshold: 5, low: true });
    expectError(await api('/api/inventory?low=yes', { key }), 400, 'INVALID_REQUEST');
    expectError(await api('/api/inventory?sort=price', { key }), 400, 'INVALID_REQUEST');
  });

  it('adjusts stock, keeps the history newest first with orders in it, and emits inventory.low once per crossing', async () => {
    const key = await adminKey();
    const product = await createProduct(key, { stock: 10, variants: undefined, lowStockThreshold: 3 });
    const variantId = product.variants[0].id;
    await placeOrder(db(), { customerId: null, email: `g-${uid()}@example.test`, lines: [{ variantId, quantity: 2 }], actor: 'system' });

    const down = await adjust(key, variantId, { delta: -5, reason: 'damage', note: 'water leak' });
    expect(down.status, JSON.stringify(down.body)).toBe(201);
    expect(down.body.data).toMatchObject({ variantId, productId: product.id, delta: -5, reason: 'damage', note: 'water leak', actor: expect.stringMatching(/^key:/) });
    expect(down.body.data.inventory).toMatchObject({ stock: 3, low: true, lowStockThreshold: 3 });
    expect(await lowEvents(variantId)).toHaveLength(1);
    await adjust(key, variantId, { delta: -1, reason: 'correction' }); // already low: no second event
    expect(await lowEvents(variantId)).toHaveLength(1);
    // At most one an hour per variant: the first is made an hour old, so the next crossing emits again.
    const [first] = await lowEvents(variantId);
    await db().update(events).set({ createdAt: '2000-01-01T00:00:00.000Z' }).where(eq(events.id, first!.id));
    await adjust(key, variantId, { delta: 8, reason: 'restock' }); // 10
    await adjust(key, variantId, { delta: -7, reason: 'damage' }); // 3: crosses again
    const lows = await lowEvents(variantId);
    expect(lows).toHaveLength(2);
    expect(lows[1]!.data).toMatchObject({ productId: product.id, variantId, quantity: 3, threshold: 3 });

    const history = await api(`/api/inventory/${variantId}/adjustments`, { key });
    expect(history.body.data.map((h: any) => [h.reason, h.delta])).toEqual([
      ['damage', -7],
      ['restock', 8],
      ['correction', -1],
      ['damage', -5],
      ['order', -2],
    ]);
    const page = await api(`/api/inventory/${variantId}/adjustments?limit=2&page=3&reason=damage`, { key });
    expect(page.body.pagination).toMatchObject({ total: 2, page: 3, hasNext: false });
    expect(page.body.data).toEqual([]);
  });

  it('refuses to go below zero and changes nothing', async () => {
    const key = await adminKey();
    const product = await createProduct(key, { stock: 2 });
    const variantId = product.variants[0].id;
    const res = await adjust(key, variantId, { delta: -3, reason: 'damage' });
    expectError(res, 409, 'CONFLICT');
    expect(res.body.error.details).toMatchObject([{ field: 'delta' }]);
    expect((await api(`/api/inventory/${variantId}/adjustments`, { key })).body.data).toEqual([]);
    expect((await api(`/api/inventory?product=${product.id}`, { key })).body.data[0].stock).toBe(2);
    const invalid = await adjust(key, variantId, { delta: 0, reason: 'order' });
    expectError(invalid, 422, 'VALIDATION_ERROR');
    expect(invalid.body.error.details.map((d: any) => d.field).sort()).toEqual(['delta', 'reason']);
    expectError(await adjust(key, 'var_missing', { delta: 1, reason: 'restock' }), 404, 'NOT_FOUND');
  });

  it('records stock set through the products API as a correction, with inventory.low', async () => {
    const key = await adminKey();
    const product = await createProduct(key, { variants: [{ stock: 20, lowStockThreshold: 5 }] });
    const variantId = product.variants[0].id;
    const res = await api(`/api/products/${product.id}/variants/${variantId}`, { method: 'PATCH', key, json: { stock: 4 } });
    expect(res.status).toBe(200);
    expect(res.body.data.stock).toBe(4);
    const history = await api(`/api/inventory/${variantId}/adjustments`, { key });
    expect(history.body.data).toMatchObject([{ reason: 'correction', delta: -16 }]);
    expect(await lowEvents(variantId)).toHaveLength(1);
  });

  it('lets vendors read their own variants only, needs inventory:write to adjust, and refuses customers and anonymous callers', async () => {
    const key = await adminKey();
    const vendor = await insertVendorUser();
    const own = await createProduct(key, { vendorId: vendor.vendor.id, stock: 3 });
    const other = await createProduct(key, { stock: 3 });
    const listed = await api('/api/inventory', { key: vendor.token });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((i: any) => i.productId)).toEqual([own.id]);
    expect((await api(`/api/inventory/${own.variants[0].id}/adjustments`, { key: vendor.token })).status).toBe(200);
    expectError(await api(`/api/inventory/${other.variants[0].id}/adjustments`, { key: vendor.token }), 404, 'NOT_FOUND');
    expectError(await adjust(vendor.token, own.variants[0].id, { delta: 1, reason: 'restock' }), 403, 'AUTHORIZATION_ERROR');
    const customer = await insertUser();
    expectError(await api('/api/inventory', { key: customer.token }), 403, 'AUTHORIZATION_ERROR');
    expectError(await api('/api/inventory'), 401, 'AUTHENTICATION_ERROR');
    const stockKeeper = (await createApiKey(db(), { name: 'stock', permissions: ['inventory:write'] })).key;
    expect((await adjust(stockKeeper, other.variants[0].id, { delta: 2, reason: 'return' })).status).toBe(201);
    expect((await api(`/api/inventory?product=${other.id}`, { key: stockKeeper })).body.data[0].stock).toBe(5);
  });
});
