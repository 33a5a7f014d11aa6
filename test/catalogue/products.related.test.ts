import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { adminKey, api, createBrand, createCategory, createProduct, insertVendor } from '../helpers';

/**
 * products.related (migrations/0014_product_related.sql) is what every product read shows of brands,
 * vendors, categories and variants: these tests change each source and hold the representation
 * against the tables themselves.
 */

/** The product as the tables say it is, read without products.related. */
async function fromTables(id: string) {
  const brand = await env.DB.prepare('SELECT b.id, b.name, b.slug FROM brands b JOIN products p ON p.brand_id = b.id WHERE p.id = ?').bind(id).first();
  const vendor = await env.DB.prepare('SELECT v.id, v.name, v.slug FROM vendors v JOIN products p ON p.vendor_id = v.id WHERE p.id = ?').bind(id).first();
  const { results: categories } = await env.DB.prepare(
    'SELECT c.id, c.name, c.slug FROM categories c JOIN product_categories pc ON pc.category_id = c.id WHERE pc.product_id = ? ORDER BY c.name, c.id',
  )
    .bind(id)
    .all();
  const { results: variants } = await env.DB.prepare('SELECT id, sku, stock, price FROM product_variants WHERE product_id = ? ORDER BY position, id')
    .bind(id)
    .all<{ price: number }>();
  return { brand, vendor, categories, variants: variants.map((v) => ({ ...v, price: v.price / 100 })) };
}

async function shown(id: string, key?: string) {
  const res = await api(`/api/products/${id}`, { key });
  expect(res.status).toBe(200);
  const p = res.body.data;
  return {
    brand: p.brand,
    vendor: p.vendor,
    categories: p.categories,
    variants: p.variants.map((v: any) => ({ id: v.id, sku: v.sku, stock: v.stock, price: v.price })),
    stock: p.stock,
  };
}

async function expectInSync(id: string, key: string) {
  const { stock, ...view } = await shown(id, key);
  const tables = await fromTables(id);
  expect(view).toEqual(tables);
  expect(stock).toBe(tables.variants.reduce((sum, v: any) => sum + v.stock, 0));
}

describe('products.related', () => {
  it('follows every change of brand, vendor, categories and variants', async () => {
    const key = await adminKey();
    const [brand, otherBrand, catA, catB] = await Promise.all([
      createBrand(key),
      createBrand(key),
      createCategory(key, { name: 'Zeta shelf' }),
      createCategory(key, { name: 'Alpha shelf' }),
    ]);
    const vendor = await insertVendor();
    const product = await createProduct(key, {
      brandId: brand.id,
      vendorId: vendor.id,
      categoryIds: [catA.id, catB.id],
      variants: [
        { sku: `R-${Date.now()}-1`, price: 12.5, stock: 3, options: { size: 'S' } },
        { sku: `R-${Date.now()}-2`, price: 13, stock: 4, options: { size: 'M' } },
      ],
    });
    // Categories by name: Alpha before Zeta, whatever the order given.
    expect(product.categories.map((c: any) => c.id)).toEqual([catB.id, catA.id]);
    await expectInSync(product.id, key);

    const steps: [string, string, unknown][] = [
      ['PATCH', `/api/brands/${brand.id}`, { name: 'Renamed brand' }],
      ['PATCH', `/api/categories/${catA.id}`, { name: 'Aardvark shelf' }],
      ['PATCH', `/api/products/${product.id}/variants/${product.variants[0].id}`, { stock: 9, price: 11 }],
      ['POST', `/api/products/${product.id}/variants`, { sku: `R-${Date.now()}-3`, price: 14, stock: 1, options: { size: 'L' } }],
      ['DELETE', `/api/products/${product.id}/variants/${product.variants[1].id}`, undefined],
      ['PATCH', `/api/products/${product.id}`, { brandId: otherBrand.id, categoryIds: [catB.id] }],
      ['PATCH', `/api/products/${product.id}`, { vendorId: null }],
      ['DELETE', `/api/brands/${otherBrand.id}`, undefined],
    ];
    for (const [method, path, json] of steps) {
      const res = await api(path, { method, key, json });
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
      await expectInSync(product.id, key);
    }
    const final = await shown(product.id, key);
    expect(final.brand).toBeNull();
    expect(final.vendor).toBeNull();
    expect(final.categories.map((c: any) => c.id)).toEqual([catB.id]);
    expect(final.variants.map((v: any) => v.stock)).toEqual([9, 1]);
    expect(final.stock).toBe(10);
  });

  it('rebuilds every product of a renamed brand, vendor or category, not only the first', async () => {
    const key = await adminKey();
    const [brand, category] = await Promise.all([createBrand(key), createCategory(key)]);
    const vendor = await insertVendor();
    const products = await Promise.all(Array.from({ length: 4 }, () => createProduct(key, { brandId: brand.id, vendorId: vendor.id, categoryIds: [category.id] })));
    expect((await api(`/api/brands/${brand.id}`, { method: 'PATCH', key, json: { name: 'Brand for all' } })).status).toBe(200);
    expect((await api(`/api/categories/${category.id}`, { method: 'PATCH', key, json: { slug: `all-${Date.now()}` } })).status).toBe(200);
    await env.DB.prepare('UPDATE vendors SET name = ? WHERE id = ?').bind('Vendor for all', vendor.id).run();
    for (const p of products) {
      const view = await shown(p.id, key);
      expect(view.brand.name).toBe('Brand for all');
      expect(view.vendor.name).toBe('Vendor for all');
      await expectInSync(p.id, key);
    }
    // The rebuild requests never stay behind.
    expect((await env.DB.prepare('SELECT count(*) AS n FROM product_related_refresh').first<{ n: number }>())!.n).toBe(0);
  });

  it('follows stock taken by an order', async () => {
    const key = await adminKey();
    const product = await createProduct(key, { stock: 5 });
    const res = await api('/api/orders', { method: 'POST', key, json: { lines: [{ variantId: product.variants[0].id, quantity: 2 }], email: 'related@example.com' } });
    expect(res.status).toBe(201);
    const view = await shown(product.id);
    expect(view.stock).toBe(3);
    await expectInSync(product.id, key);
  });
});

describe('stock changes patch products.related in place (migration 0019)', () => {
  it('keeps every variant of the product in sync through orders, restocks and price changes', async () => {
    const key = await adminKey();
    const product = await createProduct(key, {
      variants: [
        { name: 'S', price: 10, stock: 9 },
        { name: 'M', price: 11, stock: 5 },
        { name: 'L', price: 12, stock: 2 },
      ],
    });
    const [, middle] = product.variants;
    const order = await api('/api/orders', { method: 'POST', key, json: { email: 'related@example.test', lines: [{ variantId: middle.id, quantity: 2 }] } });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    const afterOrder = await shown(product.id, key);
    expect(afterOrder.variants.map((v: { stock: number }) => v.stock)).toEqual([9, 3, 2]);
    await expectInSync(product.id, key);
    // A stock and a price change in one statement: both triggers fire and agree.
    await env.DB.prepare('UPDATE product_variants SET stock = stock + 7, price = 1500, updated_at = ? WHERE id = ?').bind(new Date().toISOString(), middle.id).run();
    await expectInSync(product.id, key);
    const { variants } = await shown(product.id, key);
    expect(variants[1]).toMatchObject({ stock: 10, price: 15 });
    const related = await env.DB.prepare('SELECT related FROM products WHERE id = ?').bind(product.id).first<{ related: string }>();
    const row = await env.DB.prepare('SELECT updated_at FROM product_variants WHERE id = ?').bind(middle.id).first<{ updated_at: string }>();
    expect(JSON.parse(related!.related).variants[1].updatedAt).toBe(row!.updated_at);
  });
});
