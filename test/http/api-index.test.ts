import { describe, expect, it } from 'vitest';
import { adminKey, api } from '../helpers';

describe('GET /api: the index', () => {
  it('answers at /api and /api/v1 with the name, version and links, in the success envelope', async () => {
    for (const path of ['/api', '/api/v1']) {
      const res = await api(path);
      expect(res.status, path).toBe(200);
      expect(res.body).toMatchObject({ success: true, message: 'OK' });
      expect(res.body.data).toMatchObject({
        name: 'Store API',
        version: 'v1',
        links: { self: '/api', docs: '/docs', openapi: '/api/openapi.json', health: '/api/health' },
        collections: { products: '/api/products', categories: '/api/categories', brands: '/api/brands', carts: '/api/carts', orders: '/api/orders', customers: '/api/customers' },
      });
    }
  });

  it("names the store, as its settings do, for a storefront's header", async () => {
    const key = await adminKey();
    expect((await api('/api/settings', { method: 'PATCH', key, json: { name: 'Corner Shop' } })).status).toBe(200);
    expect((await api('/api')).body.data.store).toEqual({ name: 'Corner Shop' });
  });

  it('is public and not rate limited: like /api/health, it does not look at credentials', async () => {
    const res = await api('/api');
    expect(res.headers.get('X-RateLimit-Limit')).toBeNull();
    expect((await api('/api/v1', { key: 'not-a-credential' })).status).toBe(200);
  });

  it('links only to paths the OpenAPI document declares, and is declared there itself', async () => {
    const doc = (await api('/api/openapi.json')).body;
    const { links, collections } = (await api('/api')).body.data;
    expect(doc.paths['/api']?.get).toBeDefined();
    for (const path of [links.self, links.health, ...Object.values(collections)]) expect(Object.keys(doc.paths), path as string).toContain(path);
    for (const path of [links.openapi, links.docs]) expect((await api(path)).status, path).toBe(200);
  });
});
