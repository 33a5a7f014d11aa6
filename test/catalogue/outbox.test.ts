import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { events, products } from '../../src/db/schema';
import { adminKey, api, createCategory, createProduct, db, uid } from '../helpers';

// This file controls all the data of its storage, so it may count every event row.

let key: string;
beforeAll(async () => {
  key = await adminKey();
});

type EventRow = typeof events.$inferSelect;

const allEvents = () => db().select().from(events).orderBy(events.createdAt, events.id);
const eventsOf = async (productId: string) => (await allEvents()).filter((e) => (e.data as { productId?: string }).productId === productId);

/** Runs a request and returns the events it added. */
async function newEvents(run: () => Promise<unknown>): Promise<EventRow[]> {
  const before = new Set((await allEvents()).map((e) => e.id));
  await run();
  return (await allEvents()).filter((e) => !before.has(e.id));
}

describe('outbox events of product writes', () => {
  it('writes one product.created with the product as the API returned it', async () => {
    const category = await createCategory(key);
    let body: any;
    const added = await newEvents(async () => {
      const res = await api('/api/products', { method: 'POST', key, json: { name: `Evented ${uid()}`, price: 19.99, stock: 3, categoryIds: [category.id] } });
      expect(res.status).toBe(201);
      body = res.body.data;
    });
    expect(added).toHaveLength(1);
    expect(added[0]).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: 'product.created',
      data: { productId: body.id, product: body },
      createdAt: body.createdAt,
      publishedAt: null,
      position: expect.any(Number),
      resourceId: body.id,
      sequence: 1,
    });
  });

  it('writes one product.updated per change, matching the response and a later read', async () => {
    const p = await createProduct(key);
    let body: any;
    const added = await newEvents(async () => {
      const res = await api(`/api/products/${p.id}`, { method: 'PATCH', key, json: { name: 'Changed', price: 0.3 } });
      expect(res.status).toBe(200);
      body = res.body.data;
    });
    expect(added.map((e) => e.type)).toEqual(['product.updated']);
    expect(added[0]!.data).toEqual({ productId: p.id, product: body });
    expect(added[0]!.data).toEqual({ productId: p.id, product: (await api(`/api/products/${p.id}`, { key })).body.data });
    expect((added[0]!.data as any).product.price).toBe(0.3);
  });

  it('writes one product.updated for each variant create, update and delete, with the product after it', async () => {
    const p = await createProduct(key, { variants: [{ options: { size: 'S' }, stock: 1 }] });
    const current = async () => (await api(`/api/products/${p.id}`, { key })).body.data;

    let variantId = '';
    const created = await newEvents(async () => {
      const res = await api(`/api/products/${p.id}/variants`, { method: 'POST', key, json: { options: { size: 'M' }, stock: 4 } });
      expect(res.status).toBe(201);
      variantId = res.body.data.id;
    });
    expect(created.map((e) => e.type)).toEqual(['product.updated']);
    expect(created[0]!.data).toEqual({ productId: p.id, product: await current() });
    expect((created[0]!.data as any).product.stock).toBe(5);

    const updated = await newEvents(async () => {
      expect((await api(`/api/products/${p.id}/variants/${variantId}`, { method: 'PATCH', key, json: { stock: 9, price: 1.15 } })).status).toBe(200);
    });
    expect(updated.map((e) => e.type)).toEqual(['product.updated']);
    expect(updated[0]!.data).toEqual({ productId: p.id, product: await current() });
    expect((updated[0]!.data as any).product.stock).toBe(10);

    const deleted = await newEvents(async () => {
      expect((await api(`/api/products/${p.id}/variants/${variantId}`, { method: 'DELETE', key })).status).toBe(204);
    });
    expect(deleted.map((e) => e.type)).toEqual(['product.updated']);
    expect(deleted[0]!.data).toEqual({ productId: p.id, product: await current() });
    expect((deleted[0]!.data as any).product.variants).toHaveLength(1);
  });

  it('writes one product.deleted with the product id and the product as it was', async () => {
    const p = await createProduct(key, { stock: 2 });
    const last = (await api(`/api/products/${p.id}`, { key })).body.data;
    const added = await newEvents(async () => {
      expect((await api(`/api/products/${p.id}`, { method: 'DELETE', key })).status).toBe(204);
    });
    expect(added.map((e) => e.type)).toEqual(['product.deleted']);
    expect(added[0]!.data).toEqual({ productId: p.id, product: last });
    // Over the product's life: created, then deleted.
    expect((await eventsOf(p.id)).map((e) => e.type)).toEqual(['product.created', 'product.deleted']);
  });
});

describe('no event without a change', () => {
  it('writes nothing for an empty patch, of a product or of a variant', async () => {
    const p = await createProduct(key);
    const added = await newEvents(async () => {
      expect((await api(`/api/products/${p.id}`, { method: 'PATCH', key, json: {} })).status).toBe(200);
      expect((await api(`/api/products/${p.id}/variants/${p.variants[0].id}`, { method: 'PATCH', key, json: {} })).status).toBe(200);
    });
    expect(added).toEqual([]);
  });

  it('writes neither an event nor a product when the write fails', async () => {
    const existing = await createProduct(key, { sku: `TAKEN-${uid()}`, variants: [{ sku: `TAKEN-V-${uid()}`, options: { size: 'S' } }] });
    const name = `Failed ${uid()}`;
    const attempts: [unknown, number][] = [
      [{ name, price: 1, slug: existing.slug }, 409],
      [{ name, price: 1, sku: existing.sku }, 409],
      // The product row would insert fine; its variant's SKU fails, and the whole batch must roll back.
      [{ name, price: 1, variants: [{ sku: existing.variants[0].sku }] }, 409],
      [{ name, price: 1, brandId: 'brand_nope' }, 422],
      [{ name, price: -1 }, 422],
    ];
    for (const [json, status] of attempts) {
      const added = await newEvents(async () => {
        expect((await api('/api/products', { method: 'POST', key, json })).status).toBe(status);
      });
      expect(added, JSON.stringify(json)).toEqual([]);
    }
    expect(await db().select().from(products).where(eq(products.name, name))).toEqual([]);
  });

  it('writes no event and changes nothing when an update or variant write fails', async () => {
    const other = await createProduct(key, { sku: `OTHER-${uid()}` });
    const p = await createProduct(key, { sku: `MINE-${uid()}` });
    const before = (await api(`/api/products/${p.id}`, { key })).body.data;
    const added = await newEvents(async () => {
      // The SKU also goes to the default variant: both updates roll back together.
      expect((await api(`/api/products/${p.id}`, { method: 'PATCH', key, json: { name: 'Nope', sku: other.sku } })).status).toBe(409);
      expect((await api(`/api/products/${p.id}`, { method: 'PATCH', key, json: { name: 'Nope', slug: other.slug } })).status).toBe(409);
      expect((await api(`/api/products/${p.id}`, { method: 'PATCH', key, json: { price: 1.001 } })).status).toBe(422);
      expect((await api(`/api/products/${p.id}/variants`, { method: 'POST', key, json: { sku: other.sku } })).status).toBe(409);
      expect((await api(`/api/products/${p.id}/variants/${p.variants[0].id}`, { method: 'PATCH', key, json: { sku: other.sku } })).status).toBe(409);
      expect((await api(`/api/products/${p.id}/variants/${p.variants[0].id}`, { method: 'DELETE', key })).status).toBe(409);
    });
    expect(added).toEqual([]);
    expect((await api(`/api/products/${p.id}`, { key })).body.data).toEqual(before);
  });
});
