import { describe, expect, it } from 'vitest';
import { placeOrder } from '../../src/modules/orders/place-order';
import { adminKey, api, createBrand, createCategory, createProduct, db, uid } from '../helpers';

const PUBLIC = 'public, max-age=60, stale-while-revalidate=300';

describe('HTTP caching of public catalogue reads', () => {
  it('gives anonymous lists and single reads an ETag per URL and a CDN Cache-Control', async () => {
    const key = await adminKey();
    const product = await createProduct(key);
    const category = await createCategory(key);
    const brand = await createBrand(key);
    const paths = [
      '/api/products',
      '/api/products?limit=5',
      `/api/products/${product.id}`,
      '/api/categories',
      `/api/categories/${category.id}`,
      '/api/brands',
      `/api/brands/${brand.id}`,
      '/api/v1/products',
    ];
    const tags = new Set<string>();
    for (const path of paths) {
      const res = await api(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('Cache-Control'), path).toBe(PUBLIC);
      expect(res.headers.get('Vary'), path).toContain('Authorization');
      expect(res.headers.get('Vary'), path).toContain('X-D1-Bookmark');
      const etag = res.headers.get('ETag');
      expect(etag, path).toMatch(/^W\/"c\d+-[0-9a-z]+"$/);
      tags.add(etag!);
      // The same URL at the same catalogue version has the same tag.
      expect((await api(path)).headers.get('ETag')).toBe(etag);
    }
    expect(tags.size).toBe(paths.length);
  });

  it('answers a matching If-None-Match with 304, no body, after reading only the version row', async () => {
    await createProduct(await adminKey());
    const first = await api('/api/products');
    const etag = first.headers.get('ETag')!;
    expect(Number(first.headers.get('X-D1-Rows-Read'))).toBeGreaterThan(1);
    const again = await api('/api/products', { headers: { 'If-None-Match': etag } });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.get('ETag')).toBe(etag);
    expect(again.headers.get('Cache-Control')).toBe(PUBLIC);
    expect(again.headers.get('X-D1-Rows-Read')).toBe('1');
    expect(again.headers.get('X-D1-Round-Trips')).toBe('1');
    // A list of tags, and the strong form of the weak tag, match too; another tag does not.
    expect((await api('/api/products', { headers: { 'If-None-Match': `"x", ${etag.slice(2)}` } })).status).toBe(304);
    expect((await api('/api/products', { headers: { 'If-None-Match': 'W/"c0-zzz"' } })).status).toBe(200);
  });

  it('changes the ETag after a product update', async () => {
    const key = await adminKey();
    const product = await createProduct(key);
    const before = (await api(`/api/products/${product.id}`)).headers.get('ETag')!;
    const listBefore = (await api('/api/products')).headers.get('ETag')!;
    expect((await api(`/api/products/${product.id}`, { method: 'PATCH', key, json: { name: `Renamed ${uid()}` } })).status).toBe(200);
    const after = await api(`/api/products/${product.id}`, { headers: { 'If-None-Match': before } });
    expect(after.status).toBe(200);
    expect(after.headers.get('ETag')).not.toBe(before);
    expect((await api('/api/products')).headers.get('ETag')).not.toBe(listBefore);
  });

  it('changes the ETag after an order decrements stock (a writer outside the catalogue code)', async () => {
    const product = await createProduct(await adminKey(), { stock: 10 });
    const before = await api(`/api/products/${product.id}`);
    const etag = before.headers.get('ETag')!;
    await placeOrder(db(), { customerId: null, email: `buyer-${uid()}@example.test`, lines: [{ variantId: product.variants[0].id, quantity: 2 }], actor: 'system' });
    const after = await api(`/api/products/${product.id}`, { headers: { 'If-None-Match': etag } });
    expect(after.status).toBe(200);
    expect(after.body.data.stock).toBe(8);
    expect(after.headers.get('ETag')).not.toBe(etag);
  });

  it('never lets a shared cache keep a credentialed read, and gives it no ETag', async () => {
    const key = await adminKey();
    const product = await createProduct(key, { status: 'draft' });
    for (const path of ['/api/products', `/api/products/${product.id}`, '/api/categories', '/api/brands']) {
      const res = await api(path, { key });
      expect(res.status, path).toBe(200);
      expect(res.headers.get('Cache-Control'), path).toBe('private, no-store');
      expect(res.headers.get('ETag'), path).toBeNull();
    }
    // An ETag taken anonymously does not turn a credentialed read into a 304.
    const etag = (await api('/api/products')).headers.get('ETag')!;
    expect((await api('/api/products', { key, headers: { 'If-None-Match': etag } })).status).toBe(200);
  });

  it('answers If-None-Match: * with 304 only when the product exists for the caller (RFC 9110 13.1.2)', async () => {
    const key = await adminKey();
    const draft = await createProduct(key, { status: 'draft' });
    const active = await createProduct(key);
    const star = { headers: { 'If-None-Match': '*' } };
    // No current representation: a missing product and a draft (404 to the public) are 404, not "not modified".
    const missing = await api('/api/products/prod_missing', star);
    expect(missing.status, missing.headers.get('ETag') ?? '').toBe(404);
    expect(missing.body.error.code).toBe('NOT_FOUND');
    expect((await api(`/api/products/${draft.id}`, star)).status).toBe(404);
    expect((await api(`/api/products/${draft.id}`, { headers: { 'If-None-Match': '"x", *' } })).status).toBe(404);
    // An active product has one: 304 whether it was rendered before (kept) or not.
    expect((await api(`/api/products/${active.id}`, star)).status).toBe(304);
    expect((await api(`/api/products/${active.id}`)).status).toBe(200);
    expect((await api(`/api/products/${active.id}`, star)).status).toBe(304);
  });

  it('does not tag errors or writes', async () => {
    const missing = await api('/api/products/prod_missing');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('ETag')).toBeNull();
    const created = await api('/api/products', { method: 'POST', key: await adminKey(), json: { name: `P ${uid()}`, price: 1 } });
    expect(created.status).toBe(201);
    expect(created.headers.get('ETag')).toBeNull();
  });
});
