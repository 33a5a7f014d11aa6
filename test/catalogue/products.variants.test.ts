import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { products, productVariants } from '../../src/db/schema';
import { adminKey, api, createProduct, db, expectError, tick, uid } from '../helpers';

let key: string;
beforeAll(async () => {
  key = await adminKey();
});

const variantsPath = (productId: string) => `/api/products/${productId}/variants`;

/** A product with three sized variants (stock 3, 4, 5). */
function sizedProduct(price = 20) {
  const token = uid();
  return createProduct(key, {
    price,
    variants: [
      { sku: `SZ-${token}-S`, options: { size: 'S' }, stock: 3 },
      { sku: `SZ-${token}-M`, options: { size: 'M' }, stock: 4 },
      { sku: `SZ-${token}-L`, options: { size: 'L' }, stock: 5, price: 22.5 },
    ],
  });
}

async function productStock(id: string) {
  const { body } = await api(`/api/products/${id}`, { key });
  return { stock: body.data.stock as number, sum: (body.data.variants as { stock: number }[]).reduce((s, v) => s + v.stock, 0), count: body.data.variants.length as number };
}

describe('GET /api/products/{id}/variants', () => {
  it("lists a product's variants in position order with pagination", async () => {
    const p = await sizedProduct();
    const res = await api(variantsPath(p.id));
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data).toEqual(p.variants);
    expect(res.body.data.map((v: any) => v.options.size)).toEqual(['S', 'M', 'L']);
    expect(res.body.pagination).toEqual({ page: 1, limit: 100, total: 3, totalPages: 1, hasNext: false, hasPrev: false });
    // By slug too, and with a field selection.
    const selected = await api(`${variantsPath(p.slug)}?fields=id,stock`);
    expect(selected.body.data).toEqual(p.variants.map((v: any) => ({ id: v.id, stock: v.stock })));
  });

  it('answers 404 for an unknown product, and for a draft product to anonymous callers', async () => {
    expectError(await api(variantsPath(`prod_${uid().toUpperCase()}`)), 404, 'NOT_FOUND');
    const draft = await createProduct(key, { status: 'draft' });
    expectError(await api(variantsPath(draft.id)), 404, 'NOT_FOUND');
    expectError(await api(`${variantsPath(draft.id)}/${draft.variants[0].id}`), 404, 'NOT_FOUND');
    expect((await api(variantsPath(draft.id), { key })).body.data).toEqual(draft.variants);
  });
});

describe('POST /api/products/{id}/variants', () => {
  it('keeps a weight (for shipping by weight): set on create, changed by PATCH, shown by the product, never negative', async () => {
    const p = await sizedProduct(20);
    const created = await api(variantsPath(p.id), { method: 'POST', key, json: { sku: `W-${uid()}`, options: { size: 'W' }, weight: 0.25 } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data.weight).toBe(0.25);
    const patched = await api(`${variantsPath(p.id)}/${created.body.data.id}`, { method: 'PATCH', key, json: { weight: 1.5 } });
    expect(patched.body.data.weight).toBe(1.5);
    const product = (await api(`/api/products/${p.id}`)).body.data;
    expect(product.variants.find((v: { id: string }) => v.id === created.body.data.id).weight).toBe(1.5);
    const negative = await api(`${variantsPath(p.id)}/${created.body.data.id}`, { method: 'PATCH', key, json: { weight: -1 } });
    expect(negative.status).toBe(422);
    expect(negative.body.error.details[0].field).toBe('weight');
  });

  it('reads weight null from a product whose variants were kept before weights existed (no key in products.related)', async () => {
    const p = await sizedProduct(5);
    await db()
      .update(products)
      .set({
        related: sql`json_set(${products.related}, '$.variants', (SELECT json_group_array(json_remove(value, '$.weight')) FROM json_each(${products.related}, '$.variants')))`,
      })
      .where(eq(products.id, p.id));
    const [row] = await db().select({ related: products.related }).from(products).where(eq(products.id, p.id));
    expect(row!.related.variants[0]).not.toHaveProperty('weight');
    expect((await api(`/api/products/${p.id}`)).body.data.variants.map((v: { weight: unknown }) => v.weight)).toEqual([null, null, null]);
  });

  it('adds a variant whose price defaults to the product price: 201 with Location', async () => {
    const p = await sizedProduct(20);
    const sku = `NEW-${uid()}`;
    await tick();
    const res = await api(variantsPath(p.id), { method: 'POST', key, json: { sku, options: { size: 'XL' }, stock: 6, name: 'Extra large' } });
    expect(res.status).toBe(201);
    const v = res.body.data;
    expect(res.headers.get('Location')).toBe(`/api/products/${p.id}/variants/${v.id}`);
    expect(v).toEqual({
      id: expect.stringMatching(/^var_/),
      sku,
      name: 'Extra large',
      options: { size: 'XL' },
      price: 20,
      compareAtPrice: null,
      prices: [],
      weight: null,
      stock: 6,
      lowStockThreshold: null,
      position: 3,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(v).not.toHaveProperty('productId');
    const after = (await api(`/api/products/${p.id}`)).body.data;
    expect(after.variants.at(-1)).toEqual(v);
    expect(after.stock).toBe(3 + 4 + 5 + 6);
    expect(v.updatedAt > p.updatedAt).toBe(true);
    expect(after.updatedAt).toBe(v.updatedAt);
  });

  it('keeps an explicit price exactly', async () => {
    const p = await sizedProduct(20);
    const res = await api(variantsPath(p.id), { method: 'POST', key, json: { price: 0.29, compareAtPrice: 1.15 } });
    expect(res.status).toBe(201);
    expect(res.body.data.price).toBe(0.29);
    expect(res.body.data.compareAtPrice).toBe(1.15);
    const row = await db().query.productVariants.findFirst({ where: eq(productVariants.id, res.body.data.id) });
    expect([row!.price, row!.compareAtPrice]).toEqual([29, 115]);
  });

  it('answers 422 for an invalid variant, 409 for a taken SKU and 404 for an unknown product', async () => {
    const p = await sizedProduct();
    const invalid = await api(variantsPath(p.id), { method: 'POST', key, json: { price: 1.001, stock: -2, colour: 'red' } });
    expectError(invalid, 422, 'VALIDATION_ERROR');
    expect(invalid.body.error.details.map((d: any) => d.field).sort()).toEqual(['colour', 'price', 'stock']);

    const taken = await api(variantsPath(p.id), { method: 'POST', key, json: { sku: p.variants[0].sku } });
    expectError(taken, 409, 'CONFLICT');
    expect(taken.body.error.details[0].field).toBe('sku');
    expect((await productStock(p.id)).count).toBe(3);

    expectError(await api(variantsPath(`prod_${uid().toUpperCase()}`), { method: 'POST', key, json: {} }), 404, 'NOT_FOUND');
  });
});

describe('GET, PATCH and DELETE /api/products/{id}/variants/{variantId}', () => {
  it('gets one variant', async () => {
    const p = await sizedProduct();
    const res = await api(`${variantsPath(p.id)}/${p.variants[1].id}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(p.variants[1]);
    const selected = await api(`${variantsPath(p.id)}/${p.variants[1].id}?fields=sku,price`);
    expect(selected.body.data).toEqual({ sku: p.variants[1].sku, price: p.variants[1].price });
  });

  it('updates a variant, and the product stock follows', async () => {
    const p = await sizedProduct();
    const target = p.variants[1];
    await tick();
    const res = await api(`${variantsPath(p.id)}/${target.id}`, {
      method: 'PATCH',
      key,
      json: { stock: 40, price: 19.99, options: { size: 'M', fit: 'slim' }, lowStockThreshold: 2 },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ ...target, stock: 40, price: 19.99, options: { size: 'M', fit: 'slim' }, lowStockThreshold: 2, updatedAt: expect.any(String) });
    expect(res.body.data.updatedAt > target.updatedAt).toBe(true);
    expect((await api(`${variantsPath(p.id)}/${target.id}`)).body.data).toEqual(res.body.data);
    expect(await productStock(p.id)).toEqual({ stock: 3 + 40 + 5, sum: 48, count: 3 });
    // The other variants are untouched.
    const listed = (await api(variantsPath(p.id))).body.data;
    expect(listed[0]).toEqual(p.variants[0]);
    expect(listed[2]).toEqual(p.variants[2]);
  });

  it('answers an empty variant patch with the unchanged variant', async () => {
    const p = await sizedProduct();
    const res = await api(`${variantsPath(p.id)}/${p.variants[0].id}`, { method: 'PATCH', key, json: {} });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(p.variants[0]);
  });

  it('answers 409 when a variant patch takes another SKU, and 422 for invalid fields', async () => {
    const p = await sizedProduct();
    const taken = await api(`${variantsPath(p.id)}/${p.variants[0].id}`, { method: 'PATCH', key, json: { sku: p.variants[1].sku } });
    expectError(taken, 409, 'CONFLICT');
    expect(taken.body.error.details[0].field).toBe('sku');
    const invalid = await api(`${variantsPath(p.id)}/${p.variants[0].id}`, { method: 'PATCH', key, json: { price: -1, productId: 'prod_x' } });
    expectError(invalid, 422, 'VALIDATION_ERROR');
    expect(invalid.body.error.details.map((d: any) => d.field).sort()).toEqual(['price', 'productId']);
    expect((await api(`${variantsPath(p.id)}/${p.variants[0].id}`)).body.data).toEqual(p.variants[0]);
  });

  it('deletes a variant: 204 with no body, then 404, and the product stock drops', async () => {
    const p = await sizedProduct();
    const gone = p.variants[2];
    const res = await api(`${variantsPath(p.id)}/${gone.id}`, { method: 'DELETE', key });
    expect(res.status).toBe(204);
    expect(res.body).toBe('');
    expectError(await api(`${variantsPath(p.id)}/${gone.id}`), 404, 'NOT_FOUND');
    expectError(await api(`${variantsPath(p.id)}/${gone.id}`, { method: 'DELETE', key }), 404, 'NOT_FOUND');
    expect(await productStock(p.id)).toEqual({ stock: 7, sum: 7, count: 2 });
    expect(await db().select().from(productVariants).where(eq(productVariants.id, gone.id))).toEqual([]);
  });

  it('answers 409 CONFLICT to deleting the last variant, and keeps it', async () => {
    const p = await createProduct(key, { stock: 2 });
    const res = await api(`${variantsPath(p.id)}/${p.variants[0].id}`, { method: 'DELETE', key });
    expectError(res, 409, 'CONFLICT');
    expect((await api(variantsPath(p.id))).body.data).toEqual(p.variants);

    const two = await sizedProduct();
    expect((await api(`${variantsPath(two.id)}/${two.variants[0].id}`, { method: 'DELETE', key })).status).toBe(204);
    expect((await api(`${variantsPath(two.id)}/${two.variants[1].id}`, { method: 'DELETE', key })).status).toBe(204);
    expectError(await api(`${variantsPath(two.id)}/${two.variants[2].id}`, { method: 'DELETE', key }), 409, 'CONFLICT');
  });

  it('answers 404 for a variant of another product on every method, and leaves it alone', async () => {
    const a = await sizedProduct();
    const b = await sizedProduct();
    const foreign = b.variants[0];
    expectError(await api(`${variantsPath(a.id)}/${foreign.id}`), 404, 'NOT_FOUND');
    expectError(await api(`${variantsPath(a.id)}/${foreign.id}`, { method: 'PATCH', key, json: { stock: 99 } }), 404, 'NOT_FOUND');
    expectError(await api(`${variantsPath(a.id)}/${foreign.id}`, { method: 'DELETE', key }), 404, 'NOT_FOUND');
    expectError(await api(`${variantsPath(a.id)}/var_${uid().toUpperCase()}`), 404, 'NOT_FOUND');
    expect((await api(`${variantsPath(b.id)}/${foreign.id}`)).body.data).toEqual(foreign);
  });
});

describe('product stock', () => {
  it('is the sum of variant stock on create, in lists and after every variant change', async () => {
    const p = await sizedProduct();
    expect(p.stock).toBe(12);
    const listed = await api(`/api/products?q=${encodeURIComponent(p.variants[0].sku)}&fields=id,stock`);
    expect(listed.body.data).toEqual([{ id: p.id, stock: 12 }]);

    await api(variantsPath(p.id), { method: 'POST', key, json: { stock: 10 } });
    expect(await productStock(p.id)).toEqual({ stock: 22, sum: 22, count: 4 });
    await api(`${variantsPath(p.id)}/${p.variants[0].id}`, { method: 'PATCH', key, json: { stock: 0 } });
    expect(await productStock(p.id)).toEqual({ stock: 19, sum: 19, count: 4 });
    await api(`${variantsPath(p.id)}/${p.variants[1].id}`, { method: 'DELETE', key });
    expect(await productStock(p.id)).toEqual({ stock: 15, sum: 15, count: 3 });
  });
});
