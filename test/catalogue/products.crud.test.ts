import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { productCategories, products, productVariants } from '../../src/db/schema';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service';
import { adminKey, api, createBrand, createCategory, createProduct, db, expectError, insertVendor, tick, uid } from '../helpers';

let key: string;
beforeAll(async () => {
  key = await adminKey();
});

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** The fields named by a 422, in order. */
const invalidFields = (res: { body: any }) => (res.body.error.details as { field: string; message: string }[]).map((d) => d.field);

describe('POST /api/products', () => {
  it('creates a draft when status is omitted, and says so and how to publish it', async () => {
    const res = await api('/api/products', { method: 'POST', key, json: { name: `Draft ${uid()}`, price: 5, description: 'Half-entered.' } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ status: 'draft', stock: 0 });
    expect(res.body.message).toBe('Product created as a draft: set status to active to publish it');
    expectError(await api(`/api/products/${res.body.data.slug}`), 404, 'NOT_FOUND');

    const published = await api('/api/products', { method: 'POST', key, json: { name: `Live ${uid()}`, price: 5, status: 'active' } });
    expect(published.body.message).toBe('Product created');
    expect((await api(`/api/products/${published.body.data.slug}`)).status).toBe(200);
  });

  it('documents the draft default on the route and on the field', async () => {
    const doc = (await api('/api/openapi.json')).body;
    expect(doc.paths['/api/products'].post.description).toMatch(/Without `status` the product is created as a `draft`/);
    expect(doc.components.schemas.CreateProduct.properties.status.description).toMatch(/`draft` \(the default when omitted/);
  });

  it('creates a product: 201, Location, the full representation with a default variant', async () => {
    const token = uid();
    const res = await api('/api/products', {
      method: 'POST',
      key,
      json: { name: `Tee ${token}`, price: 19.99, compareAtPrice: 24.5, sku: `TEE-${token}`, stock: 7, weight: 0.2, description: 'Soft.' },
    });
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    const p = res.body.data;
    expect(res.headers.get('Location')).toBe(`/api/products/${p.id}`);
    expect(p).toEqual({
      id: expect.stringMatching(/^prod_[0-9A-Z]{26}$/),
      name: `Tee ${token}`,
      slug: `tee-${token}`,
      description: 'Soft.',
      currency: 'USD',
      price: 19.99,
      compareAtPrice: 24.5,
      prices: [],
      taxClass: 'standard',
      sku: `TEE-${token}`,
      status: 'draft',
      brand: null,
      vendor: null,
      categories: [],
      images: [],
      media: [],
      attributes: {},
      giftCard: false,
      stock: 7,
      lowStockThreshold: null,
      variants: [
        {
          id: expect.stringMatching(/^var_[0-9A-Z]{26}$/),
          sku: `TEE-${token}`,
          name: null,
          options: {},
          price: 19.99,
          compareAtPrice: 24.5,
          prices: [],
          weight: 0.2,
          stock: 7,
          lowStockThreshold: null,
          position: 0,
          createdAt: p.createdAt,
          updatedAt: p.createdAt,
        },
      ],
      createdAt: expect.stringMatching(ISO),
      updatedAt: p.createdAt,
    });
    // What was created is what is read back, and money is stored as integer minor units.
    const read = await api(`/api/products/${p.id}`, { key });
    expect(read.body.data).toEqual(p);
    const row = await db().query.products.findFirst({ where: eq(products.id, p.id) });
    expect(row!.price).toBe(1999);
    expect(row!.compareAtPrice).toBe(2450);
  });

  it('marks a product as a gift card on create and update, and reads it back', async () => {
    const created = await createProduct(key, { giftCard: true });
    expect(created.giftCard).toBe(true);
    const patched = await api(`/api/products/${created.id}`, { method: 'PATCH', key, json: { giftCard: false } });
    expect(patched.status).toBe(200);
    expect(patched.body.data.giftCard).toBe(false);
    const row = await db().query.products.findFirst({ where: eq(products.id, created.id) });
    expect(row!.giftCard).toBe(false);
  });

  it('keeps decimal amounts exact, including those that are inexact in binary floating point', async () => {
    const amounts = [0.3, 0.07, 0.29, 1.15, 4.35, 8.2, 0.01, 1234567.89, 999_999_999];
    for (const price of amounts) {
      const created = await createProduct(key, { price, compareAtPrice: price });
      expect(created.price).toBe(price);
      expect(created.variants[0].price).toBe(price);
      const read = await api(`/api/products/${created.id}`);
      expect(read.body.data.price).toBe(price);
      expect(read.body.data.compareAtPrice).toBe(price);
      expect(read.body.data.variants[0].price).toBe(price);
      const row = await db().query.productVariants.findFirst({ where: eq(productVariants.productId, created.id) });
      expect(row!.price).toBe(Number(price.toFixed(2).replace('.', '')));
    }
  });

  it('creates the given variants instead of a default one, their prices defaulting to the product price', async () => {
    const token = uid();
    const p = await createProduct(key, {
      price: 12.5,
      variants: [
        { sku: `V-${token}-S`, options: { size: 'S' }, stock: 2 },
        { sku: `V-${token}-L`, options: { size: 'L' }, stock: 3, price: 14.1 },
      ],
    });
    expect(p.variants.map((v: any) => [v.sku, v.options, v.price, v.stock, v.position])).toEqual([
      [`V-${token}-S`, { size: 'S' }, 12.5, 2, 0],
      [`V-${token}-L`, { size: 'L' }, 14.1, 3, 1],
    ]);
    expect(p.stock).toBe(5);
  });

  it('makes the slug from the name and de-duplicates it with a number', async () => {
    const first = await createProduct(key, { name: 'Shirt' });
    const second = await createProduct(key, { name: 'Shirt' });
    const third = await createProduct(key, { name: 'shirt!' });
    expect([first.slug, second.slug, third.slug]).toEqual(['shirt', 'shirt-2', 'shirt-3']);
    // A taken explicit slug in the sequence is skipped too.
    await createProduct(key, { name: 'Something else', slug: 'shirt-4' });
    expect((await createProduct(key, { name: 'SHIRT' })).slug).toBe('shirt-5');
  });

  it('slugifies accents and punctuation, and keeps an explicit slug', async () => {
    const token = uid();
    expect((await createProduct(key, { name: `Été Shirt (Blue) ${token}!` })).slug).toBe(`ete-shirt-blue-${token}`);
    expect((await createProduct(key, { name: 'Anything', slug: `my-slug-${token}` })).slug).toBe(`my-slug-${token}`);
  });

  it('links brand, vendor and categories given by id', async () => {
    const brand = await createBrand(key);
    const vendor = await insertVendor();
    const b = await createCategory(key, { name: `B cat ${uid()}` });
    const a = await createCategory(key, { name: `A cat ${uid()}` });
    const p = await createProduct(key, { brandId: brand.id, vendorId: vendor.id, categoryIds: [b.id, a.id, b.id] });
    expect(p.brand).toEqual({ id: brand.id, name: brand.name, slug: brand.slug });
    expect(p.vendor).toEqual(vendor);
    expect(p.categories).toEqual([a, b].map((c) => ({ id: c.id, name: c.name, slug: c.slug })));
    expect((await api(`/api/products/${p.id}`)).body.data).toEqual(p);
  });
});

describe('GET /api/products/{id}', () => {
  it('finds a product by id and by slug', async () => {
    const p = await createProduct(key);
    const byId = await api(`/api/products/${p.id}`);
    const bySlug = await api(`/api/products/${p.slug}`);
    expect(byId.status).toBe(200);
    expect(bySlug.status).toBe(200);
    expect(byId.body).toEqual({ success: true, data: p, message: expect.any(String) });
    expect(bySlug.body.data).toEqual(p);
  });

  it('answers 404 NOT_FOUND for an unknown id or slug on every method', async () => {
    const id = `prod_${uid().toUpperCase()}`;
    expectError(await api(`/api/products/${id}`), 404, 'NOT_FOUND');
    expectError(await api(`/api/products/no-such-slug-${uid()}`), 404, 'NOT_FOUND');
    expectError(await api(`/api/products/${id}`, { method: 'PATCH', key, json: { name: 'x' } }), 404, 'NOT_FOUND');
    expectError(await api(`/api/products/${id}`, { method: 'DELETE', key }), 404, 'NOT_FOUND');
  });
});

describe('PATCH /api/products/{id}', () => {
  it('changes the given fields, moves updatedAt and keeps the rest', async () => {
    const p = await createProduct(key, { description: 'old', attributes: { material: 'wool' } });
    await tick();
    const res = await api(`/api/products/${p.id}`, {
      method: 'PATCH',
      key,
      json: { name: 'Renamed', description: null, status: 'archived', attributes: { organic: true }, images: [{ url: 'https://img.test/a.png', alt: 'A' }] },
    });
    expect(res.status).toBe(200);
    const u = res.body.data;
    expect(u).toEqual({
      ...p,
      name: 'Renamed',
      description: null,
      status: 'archived',
      attributes: { organic: true },
      images: [{ url: 'https://img.test/a.png', alt: 'A' }],
      updatedAt: expect.stringMatching(ISO),
    });
    expect(u.updatedAt > p.updatedAt).toBe(true);
    expect(u.createdAt).toBe(p.createdAt);
    // The response is what a later read sees.
    expect((await api(`/api/products/${p.id}`, { key })).body.data).toEqual(u);
  });

  it('finds the product to update by slug too', async () => {
    const p = await createProduct(key);
    const res = await api(`/api/products/${p.slug}`, { method: 'PATCH', key, json: { price: 3.3 } });
    expect(res.status).toBe(200);
    expect(res.body.data.id).toBe(p.id);
    expect(res.body.data.price).toBe(3.3);
  });

  it('replaces the category set with categoryIds', async () => {
    const [a, b, c] = [await createCategory(key, { name: `a ${uid()}` }), await createCategory(key, { name: `b ${uid()}` }), await createCategory(key, { name: `c ${uid()}` })];
    const ref = (x: any) => ({ id: x.id, name: x.name, slug: x.slug });
    const p = await createProduct(key, { categoryIds: [a.id, b.id] });
    expect(p.categories).toEqual([ref(a), ref(b)]);

    const res = await api(`/api/products/${p.id}`, { method: 'PATCH', key, json: { categoryIds: [c.id, b.id] } });
    expect(res.status).toBe(200);
    expect(res.body.data.categories).toEqual([ref(b), ref(c)]);
    expect((await api(`/api/products/${p.id}`)).body.data.categories).toEqual([ref(b), ref(c)]);

    // Other fields leave the set alone; an empty list empties it.
    await api(`/api/products/${p.id}`, { method: 'PATCH', key, json: { name: 'Still in b and c' } });
    expect((await api(`/api/products/${p.id}`)).body.data.categories).toEqual([ref(b), ref(c)]);
    const emptied = await api(`/api/products/${p.id}`, { method: 'PATCH', key, json: { categoryIds: [] } });
    expect(emptied.body.data.categories).toEqual([]);
    const links = await db().select().from(productCategories).where(eq(productCategories.productId, p.id));
    expect(links).toEqual([]);
  });

  it('clears the brand and vendor with null, and the response has no raw id columns', async () => {
    const brand = await createBrand(key);
    const vendor = await insertVendor();
    const p = await createProduct(key, { brandId: brand.id, vendorId: vendor.id });
    expect(p.brand.id).toBe(brand.id);

    const res = await api(`/api/products/${p.id}`, { method: 'PATCH', key, json: { brandId: null, vendorId: null } });
    expect(res.status).toBe(200);
    expect(res.body.data.brand).toBeNull();
    expect(res.body.data.vendor).toBeNull();
    expect(res.body.data).not.toHaveProperty('brandId');
    expect(res.body.data).not.toHaveProperty('vendorId');
    const read = await api(`/api/products/${p.id}`);
    expect(read.body.data.brand).toBeNull();
    expect(read.body.data.vendor).toBeNull();
    expect(res.body.data).toEqual(read.body.data);

    // And sets a brand by id.
    const set = await api(`/api/products/${p.id}`, { method: 'PATCH', key, json: { brandId: brand.id } });
    expect(set.body.data.brand).toEqual({ id: brand.id, name: brand.name, slug: brand.slug });
    expect(set.body.data).toEqual((await api(`/api/products/${p.id}`)).body.data);
  });

  it("carries price, compare-at price and SKU changes to a simple product's only variant", async () => {
    const token = uid();
    const p = await createProduct(key, { price: 10, sku: `SIMPLE-${token}`, stock: 4 });
    await tick();
    const res = await api(`/api/products/${p.id}`, { method: 'PATCH', key, json: { price: 25.5, compareAtPrice: 30.1, sku: `SIMPLE-${token}-2` } });
    expect(res.status).toBe(200);
    const [variant] = res.body.data.variants;
    expect(variant).toMatchObject({ id: p.variants[0].id, price: 25.5, compareAtPrice: 30.1, sku: `SIMPLE-${token}-2`, stock: 4 });
    expect(variant.updatedAt > p.variants[0].updatedAt).toBe(true);
    expect((await api(`/api/products/${p.id}`)).body.data).toEqual(res.body.data);
    // The old SKU is free again.
    await createProduct(key, { sku: `SIMPLE-${token}` });
  });

  it('leaves the variants of a product with options alone when the product price changes', async () => {
    const p = await createProduct(key, { price: 10, variants: [{ options: { size: 'M' }, price: 11 }] });
    const res = await api(`/api/products/${p.id}`, { method: 'PATCH', key, json: { price: 20 } });
    expect(res.body.data.price).toBe(20);
    expect(res.body.data.variants[0].price).toBe(11);
    expect((await api(`/api/products/${p.id}`)).body.data.variants[0].price).toBe(11);
  });

  it('answers an empty patch with the unchanged product', async () => {
    const p = await createProduct(key);
    await tick();
    const res = await api(`/api/products/${p.id}`, { method: 'PATCH', key, json: {} });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual(p);
  });
});

describe('DELETE /api/products/{id}', () => {
  it('answers 204 with no body, then the product and its variants and links are gone', async () => {
    const category = await createCategory(key);
    const p = await createProduct(key, { categoryIds: [category.id], variants: [{ options: { size: 'S' } }, { options: { size: 'M' } }] });
    const res = await api(`/api/products/${p.id}`, { method: 'DELETE', key });
    expect(res.status).toBe(204);
    expect(res.body).toBe('');
    expectError(await api(`/api/products/${p.id}`, { key }), 404, 'NOT_FOUND');
    expectError(await api(`/api/products/${p.id}/variants`, { key }), 404, 'NOT_FOUND');
    expectError(await api(`/api/products/${p.id}`, { method: 'DELETE', key }), 404, 'NOT_FOUND');
    expect(await db().select().from(productVariants).where(eq(productVariants.productId, p.id))).toEqual([]);
    expect(await db().select().from(productCategories).where(eq(productCategories.productId, p.id))).toEqual([]);
    // The category itself stays.
    expect((await api(`/api/categories/${category.id}`)).status).toBe(200);
  });
});

describe('validation', () => {
  it('answers 422 listing every invalid field at once, and creates nothing', async () => {
    const before = (await db().select({ id: products.id }).from(products)).length;
    const res = await api('/api/products', {
      method: 'POST',
      key,
      json: { price: -5, compareAtPrice: 1.999, stock: -1, colour: 'red', status: 'sold', images: [{ url: 'ftp://x.test/a.png' }] },
    });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(invalidFields(res).sort()).toEqual(['colour', 'compareAtPrice', 'images.0.url', 'name', 'price', 'status', 'stock']);
    for (const d of res.body.error.details) expect(d.message).toEqual(expect.any(String));
    expect((await db().select({ id: products.id }).from(products)).length).toBe(before);
  });

  it('refuses the fields triggers keep (related, media) on create and update, so no client can make a product show what it is not', async () => {
    const fake = { brand: { id: 'brand_x', name: 'Fake', slug: 'fake' }, vendor: null, categories: [], variants: [] };
    const created = await api('/api/products', { method: 'POST', key, json: { name: 'Honest', price: 5, related: fake, media: [] } });
    expectError(created, 422, 'VALIDATION_ERROR');
    expect(invalidFields(created).sort()).toEqual(['media', 'related']);
    const p = await createProduct(key);
    const updated = await api(`/api/products/${p.id}`, { method: 'PATCH', key, json: { related: fake } });
    expectError(updated, 422, 'VALIDATION_ERROR');
    expect((await api(`/api/products/${p.id}`, { key })).body.data.brand).toBeNull();
  });

  it('rejects an amount with more than 2 decimals, and one above the maximum', async () => {
    const res = await api('/api/products', { method: 'POST', key, json: { name: 'Precise', price: 19.999 } });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(invalidFields(res)).toEqual(['price']);
    const huge = await api('/api/products', { method: 'POST', key, json: { name: 'Huge', price: 1e10 } });
    expect(invalidFields(huge)).toEqual(['price']);
  });

  it('names the invalid fields of nested variants by path', async () => {
    const token = uid();
    const res = await api('/api/products', {
      method: 'POST',
      key,
      json: { name: 'Nested', price: 5, variants: [{ sku: `N-${token}` }, { price: 1.005, bogus: true }] },
    });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(invalidFields(res).sort()).toEqual(['variants.1.bogus', 'variants.1.price']);
  });

  it('answers 422 for an SKU repeated within one body', async () => {
    const token = uid();
    const res = await api('/api/products', { method: 'POST', key, json: { name: 'Twice', price: 5, variants: [{ sku: `D-${token}` }, { sku: `D-${token}` }] } });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(invalidFields(res)).toEqual(['variants.1.sku']);
  });

  it('validates a patch the same way', async () => {
    const p = await createProduct(key);
    const res = await api(`/api/products/${p.id}`, { method: 'PATCH', key, json: { name: '  ', price: 1.234, slug: 'Not A Slug', bogus: 1 } });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(invalidFields(res).sort()).toEqual(['bogus', 'name', 'price', 'slug']);
    expect((await api(`/api/products/${p.id}`)).body.data).toEqual(p);
  });

  it('answers 422 naming brandId, vendorId and categoryIds when they do not exist', async () => {
    const category = await createCategory(key);
    const name = `Orphan ${uid()}`;
    const res = await api('/api/products', {
      method: 'POST',
      key,
      json: { name, price: 5, brandId: 'brand_nope', vendorId: 'vend_nope', categoryIds: [category.id, 'cat_nope'] },
    });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(invalidFields(res)).toEqual(['brandId', 'vendorId', 'categoryIds']);
    expect(res.body.error.details[2].message).toContain('cat_nope');
    expect(res.body.error.details[2].message).not.toContain(category.id);
    expect(await db().select().from(products).where(eq(products.name, name))).toEqual([]);

    const p = await createProduct(key);
    const patch = await api(`/api/products/${p.id}`, { method: 'PATCH', key, json: { brandId: 'brand_nope', name: 'Unchanged?' } });
    expectError(patch, 422, 'VALIDATION_ERROR');
    expect(invalidFields(patch)).toEqual(['brandId']);
    expect((await api(`/api/products/${p.id}`)).body.data.name).toBe(p.name);
  });
});

describe('conflicts', () => {
  it('answers 409 CONFLICT on details.field slug for a taken slug, on create and on patch', async () => {
    const p = await createProduct(key);
    const res = await api('/api/products', { method: 'POST', key, json: { name: 'Copy', price: 1, slug: p.slug } });
    expectError(res, 409, 'CONFLICT');
    expect(res.body.error.details[0].field).toBe('slug');

    const other = await createProduct(key);
    const patch = await api(`/api/products/${other.id}`, { method: 'PATCH', key, json: { slug: p.slug } });
    expectError(patch, 409, 'CONFLICT');
    expect(patch.body.error.details[0].field).toBe('slug');
    expect((await api(`/api/products/${other.id}`)).body.data.slug).toBe(other.slug);
  });

  it('answers 409 on details.field sku for a taken product SKU', async () => {
    const sku = `DUP-${uid()}`;
    await createProduct(key, { sku });
    const res = await api('/api/products', { method: 'POST', key, json: { name: 'Dup sku', price: 1, sku } });
    expectError(res, 409, 'CONFLICT');
    expect(res.body.error.details[0].field).toBe('sku');

    const other = await createProduct(key);
    const patch = await api(`/api/products/${other.id}`, { method: 'PATCH', key, json: { sku } });
    expectError(patch, 409, 'CONFLICT');
    expect(patch.body.error.details[0].field).toBe('sku');
    expect((await api(`/api/products/${other.id}`)).body.data.sku).toBeNull();
  });

  it('answers 409 on details.field sku for a taken variant SKU', async () => {
    const token = uid();
    await createProduct(key, { variants: [{ sku: `VAR-${token}`, options: { size: 'S' } }] });
    const name = `Dup variant ${token}`;
    const res = await api('/api/products', { method: 'POST', key, json: { name, price: 1, variants: [{ sku: `VAR-${token}` }] } });
    expectError(res, 409, 'CONFLICT');
    expect(res.body.error.details[0].field).toBe('sku');
    // A product SKU that a variant of another product already has is taken too (it becomes the default variant's SKU).
    const asProductSku = await api('/api/products', { method: 'POST', key, json: { name, price: 1, sku: `VAR-${token}` } });
    expectError(asProductSku, 409, 'CONFLICT');
    expect(asProductSku.body.error.details[0].field).toBe('sku');
    expect(await db().select().from(products).where(eq(products.name, name))).toEqual([]);
  });
});

describe('authentication', () => {
  it('answers 401 with WWW-Authenticate to writes without a key', async () => {
    const p = await createProduct(key);
    const attempts = [
      api('/api/products', { method: 'POST', json: { name: 'Anon', price: 1 } }),
      api(`/api/products/${p.id}`, { method: 'PATCH', json: { name: 'Anon' } }),
      api(`/api/products/${p.id}`, { method: 'DELETE' }),
      api(`/api/products/${p.id}/variants`, { method: 'POST', json: {} }),
    ];
    for (const res of await Promise.all(attempts)) {
      expectError(res, 401, 'AUTHENTICATION_ERROR');
      expect(res.headers.get('WWW-Authenticate')).toBe('Bearer');
    }
    expect((await api(`/api/products/${p.id}`)).body.data).toEqual(p);
  });

  it('answers 401 to a bogus key, on reads and writes alike', async () => {
    const bogus = `sk_${'A'.repeat(40)}`;
    for (const res of [
      await api('/api/products', { key: bogus }),
      await api('/api/products', { method: 'POST', key: bogus, json: { name: 'Bogus', price: 1 } }),
      await api('/api/products', { method: 'POST', key: 'not-a-key', json: { name: 'Bogus', price: 1 } }),
    ]) {
      expectError(res, 401, 'AUTHENTICATION_ERROR');
      expect(res.headers.get('WWW-Authenticate')).toBe('Bearer');
    }
    expect(await db().select().from(products).where(eq(products.name, 'Bogus'))).toEqual([]);
  });

  it('answers 403 to a key without products:write', async () => {
    const { key: readOnly } = await createApiKey(db(), { name: 'reader', role: null, permissions: ['products:read'] });
    const res = await api('/api/products', { method: 'POST', key: readOnly, json: { name: 'Nope', price: 1 } });
    expectError(res, 403, 'AUTHORIZATION_ERROR');
  });
});
