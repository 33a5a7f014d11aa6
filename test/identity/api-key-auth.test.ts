import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiKeys } from '../../src/db/schema';
import { hashApiKey } from '../../src/middleware/credentials/api-key-format';
import { createApiKey, revokeApiKey } from '../../src/modules/api-keys/api-keys.service';
import { adminKey, api, db } from '../helpers';

const newBrand = () => ({ name: `Brand ${crypto.randomUUID().slice(0, 8)}` });

function expect401(res: { status: number; headers: Headers; body: any }, message?: RegExp) {
  expect(res.status).toBe(401);
  expect(res.body.error.code).toBe('AUTHENTICATION_ERROR');
  expect(res.headers.get('WWW-Authenticate')).toBe('Bearer');
  if (message) expect(res.body.error.message).toMatch(message);
}

describe('API keys', () => {
  it('stores only a hash of the key, with a visible prefix', async () => {
    const { key, record } = await createApiKey(db(), { name: 'hash check', role: 'admin' });
    expect(key).toMatch(/^sk_[0-9A-Za-z]{40}$/);
    const row = await db().query.apiKeys.findFirst({ where: eq(apiKeys.id, record.id) });
    expect(row!.keyHash).toBe(await hashApiKey(key));
    expect(row!.keyHash).not.toContain(key.slice(3));
    expect(row!.prefix).toBe(key.slice(0, 11));
    const dump = JSON.stringify(await env.DB.prepare('SELECT * FROM api_keys').all());
    expect(dump).not.toContain(key);
  });

  it('lets an admin key write', async () => {
    const res = await api('/api/brands', { method: 'POST', key: await adminKey(), json: newBrand() });
    expect(res.status).toBe(201);
  });

  it('lets anyone read the catalogue without a key', async () => {
    for (const path of ['/api/products', '/api/categories', '/api/brands', '/api/openapi.json']) {
      expect((await api(path)).status).toBe(200);
    }
  });

  it('refuses writes without a credential with 401', async () => {
    expect401(await api('/api/brands', { method: 'POST', json: newBrand() }), /needs a credential/);
  });

  it('refuses a malformed header or credential with 401, even on public routes', async () => {
    for (const header of ['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer not-a-key', 'Bearer sk_short', `sk_${'a'.repeat(40)}`]) {
      expect401(await api('/api/products', { headers: { Authorization: header } }));
    }
  });

  it('refuses an unknown key with 401, even on public routes', async () => {
    expect401(await api('/api/products', { key: `sk_${'A'.repeat(40)}` }), /Invalid API key/);
  });

  it('answers a credential with the key prefix but the wrong shape exactly as an unknown key', async () => {
    const unknown = await api('/api/products', { key: `sk_${'A'.repeat(40)}` });
    for (const credential of [`sk_${'A'.repeat(41)}`, `sk_${'A'.repeat(39)}`, `sk_${'A'.repeat(39)}-`, 'sk_']) {
      const res = await api('/api/products', { key: credential });
      expect401(res, /^Invalid API key$/);
      expect(res.body.error).toEqual(unknown.body.error);
    }
  });

  it('refuses a JWT signed with a secret that is not ours', async () => {
    expect401(await api('/api/products', { key: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl' }));
  });

  it('refuses a revoked key on the very next request', async () => {
    const { key, record } = await createApiKey(db(), { name: 'to revoke', role: 'admin' });
    expect((await api('/api/brands', { method: 'POST', key, json: newBrand() })).status).toBe(201);
    await revokeApiKey(db(), record.id);
    expect401(await api('/api/brands', { method: 'POST', key, json: newBrand() }), /revoked/);
    expect401(await api('/api/products', { key }), /revoked/);
  });

  it('refuses an expired key', async () => {
    const { key } = await createApiKey(db(), { name: 'expired', role: 'admin', expiresAt: new Date(Date.now() - 1000).toISOString() });
    expect401(await api('/api/products', { key }), /expired/);
  });

  it('accepts a key whose expiry is still ahead', async () => {
    const { key } = await createApiKey(db(), { name: 'future', role: 'admin', expiresAt: new Date(Date.now() + 3600_000).toISOString() });
    expect((await api('/api/brands', { method: 'POST', key, json: newBrand() })).status).toBe(201);
  });

  it('refuses a key without the permission with 403, and allows one that has it', async () => {
    const reader = await createApiKey(db(), { name: 'reader', role: null, permissions: ['products:read'] });
    const res = await api('/api/brands', { method: 'POST', key: reader.key, json: newBrand() });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('AUTHORIZATION_ERROR');
    const writer = await createApiKey(db(), { name: 'writer', role: null, permissions: ['brands:*'] });
    expect((await api('/api/brands', { method: 'POST', key: writer.key, json: newBrand() })).status).toBe(201);
  });

  it('checks the credential before the body', async () => {
    const res = await api('/api/brands', { method: 'POST', json: { name: '' } });
    expect(res.status).toBe(401);
  });

  it('records when a key was last used', async () => {
    const { key, record } = await createApiKey(db(), { name: 'usage', role: 'admin' });
    expect(record.lastUsedAt).toBeNull();
    await api('/api/products', { key });
    await expect.poll(async () => (await db().query.apiKeys.findFirst({ where: eq(apiKeys.id, record.id) }))!.lastUsedAt).toEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT/));
  });

  it('lets health answer whatever the Authorization header says; the OpenAPI document checks it like any read', async () => {
    expect((await api('/api/health', { key: `sk_${'B'.repeat(40)}` })).status).toBe(200);
    expect401(await api('/api/openapi.json', { headers: { Authorization: 'garbage' } }));
  });
});
