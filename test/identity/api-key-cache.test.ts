import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiKeys } from '../../src/db/schema';
import { createApiKey, revokeApiKey } from '../../src/modules/api-keys/api-keys.service';
import { adminKey, api, createProduct, db, uid } from '../helpers';

/**
 * A read with a key this isolate confirmed lately runs on the cached principal while the key's
 * check rides in its batch (src/middleware/credentials/api-key-cache.ts): one D1 round trip, and still refused
 * on the very request after the key is revoked, expires or changes role.
 */
describe('reads with a recently confirmed API key', () => {
  it('take one D1 round trip, the key check riding in the read', async () => {
    const { key } = await createApiKey(db(), { name: 'cached reads', role: 'admin' });
    // The first read looks the key up on its own (and stamps its last use).
    const first = await api('/api/products?limit=1', { key });
    expect(Number(first.headers.get('X-D1-Round-Trips'))).toBeGreaterThanOrEqual(2);
    const second = await api('/api/products?limit=1', { key });
    expect(second.status).toBe(200);
    expect(second.headers.get('X-D1-Round-Trips')).toBe('1');
    expect(second.body.data).toEqual(first.body.data);
    expect(second.headers.get('X-RateLimit-Remaining')).toBeTruthy();
  });

  it('refuse a key revoked since it was cached, on the very next request', async () => {
    const { key, record } = await createApiKey(db(), { name: 'revoked while cached', role: 'admin' });
    expect((await api('/api/products?limit=1', { key })).status).toBe(200);
    await revokeApiKey(db(), record.id);
    const res = await api('/api/products?limit=1', { key });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(/revoked/);
    // Also where the handler reads nothing through a batch.
    expect((await api('/api/products/prod_none', { key })).status).toBe(401);
  });

  it('refuse a key that expired since it was cached', async () => {
    const { key, record } = await createApiKey(db(), { name: 'expiring', role: 'admin', expiresAt: new Date(Date.now() + 60_000).toISOString() });
    expect((await api('/api/categories?limit=1', { key })).status).toBe(200);
    await db()
      .update(apiKeys)
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where(eq(apiKeys.id, record.id));
    const res = await api('/api/categories?limit=1', { key });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toMatch(/expired/);
  });

  it("answer with the key's rights of now when its role changed since it was cached", async () => {
    const admin = await adminKey();
    const draft = await createProduct(admin, { status: 'draft' });
    const created = await api('/api/roles', { method: 'POST', key: admin, json: { name: `catalogue-${uid()}`.toLowerCase(), permissions: ['products:*'] } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const role = created.body.data.id;
    const { key } = await createApiKey(db(), { name: 'role changes', role });
    // With products:* the key is staff for products and sees the draft.
    expect((await api(`/api/products/${draft.id}`, { key })).status).toBe(200);
    const patched = await api(`/api/roles/${role}`, { method: 'PATCH', key: admin, json: { permissions: ['orders:read'] } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    // The cached principal still held products:*; the check sees the change and the request is answered as the key is now.
    const now = await api(`/api/products/${draft.id}`, { key });
    expect(now.status).toBe(404);
    expect((await api(`/api/products/${draft.id}`, { key })).status).toBe(404);
  });

  it('never lets a write run before its key is checked', async () => {
    const { key, record } = await createApiKey(db(), { name: 'write after revoke', role: 'admin' });
    expect((await api('/api/brands?limit=1', { key })).status).toBe(200);
    await revokeApiKey(db(), record.id);
    const name = `Brand ${uid()}`;
    expect((await api('/api/brands', { method: 'POST', key, json: { name } })).status).toBe(401);
    const { results } = await env.DB.prepare('SELECT id FROM brands WHERE name = ?').bind(name).all();
    expect(results).toHaveLength(0);
  });
});
