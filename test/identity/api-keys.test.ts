import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service';
import { adminKey, api, db, expectError, insertUser, insertVendorUser, uid } from '../helpers';

let key: string;
beforeAll(async () => {
  key = await adminKey();
});

const PATH = '/api/settings/api-keys';
const inAnHour = () => new Date(Date.now() + 3600_000).toISOString();

const mint = (json: Record<string, unknown>, k = key) => api(PATH, { method: 'POST', key: k, json });
const newBrand = () => ({ name: `Brand ${uid()}` });

describe('POST /api/settings/api-keys', () => {
  it('creates a role key: 201, Location, the key once, and a record that works at once', async () => {
    const expiresAt = inAnHour();
    const res = await mint({ name: 'Catalogue sync', role: 'admin', expiresAt });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const data = res.body.data;
    expect(data).toEqual({
      id: expect.stringMatching(/^key_[0-9A-Z]{26}$/),
      name: 'Catalogue sync',
      type: 'secret',
      allowedOrigins: [],
      prefix: data.key.slice(0, 11),
      role: 'admin',
      permissions: [],
      createdBy: expect.stringMatching(/^key:key_/),
      ownerId: null,
      vendorId: null,
      createdAt: expect.any(String),
      lastUsedAt: null,
      expiresAt,
      revokedAt: null,
      apiVersion: '2026-11-20',
      status: 'active',
      key: expect.stringMatching(/^sk_[0-9A-Za-z]{40}$/),
    });
    expect(res.headers.get('Location')).toBe(`${PATH}/${data.id}`);
    expect((await api('/api/brands', { method: 'POST', key: data.key, json: newBrand() })).status).toBe(201);
  });

  it('says in its message that the key is shown only this once', async () => {
    const res = await mint({ name: 'message', role: 'admin' });
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('API key created; store the key now, it is not shown again');
  });

  it('creates a key with its own permissions, which hold exactly those', async () => {
    const res = await mint({ name: 'brands only', permissions: ['brands:write', 'brands:write'] });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ role: null, permissions: ['brands:write'] });
    const k = res.body.data.key;
    expect((await api('/api/brands', { method: 'POST', key: k, json: newBrand() })).status).toBe(201);
    expectError(await api('/api/categories', { method: 'POST', key: k, json: { name: 'x' } }), 403, 'AUTHORIZATION_ERROR');
  });

  it('records a user creator as user:<id>', async () => {
    const { user, token } = await insertUser({ role: 'admin' });
    const res = await mint({ name: 'by user', permissions: ['orders:read'] }, token);
    expect(res.body.data).toMatchObject({ createdBy: `user:${user.id}`, ownerId: user.id });
  });

  it('needs exactly one of role or permissions (422)', async () => {
    for (const body of [{ name: 'none' }, { name: 'both', role: 'admin', permissions: ['orders:read'] }]) {
      const res = await mint(body);
      expectError(res, 422, 'VALIDATION_ERROR');
      expect(res.body.error.details).toEqual([{ field: 'role', code: 'invalid_value', message: 'role: give exactly one of role or permissions' }]);
    }
  });

  it('refuses an unknown role, bad permissions, a past expiry and unknown fields with 422', async () => {
    const role = await mint({ name: 'r', role: 'superuser' });
    expectError(role, 422, 'VALIDATION_ERROR');
    expect(role.body.error.details).toEqual([{ field: 'role', code: 'not_found', message: "role: no role 'superuser'" }]);
    const bad = await mint({ name: '', permissions: ['product:write'], expiresAt: new Date(Date.now() - 1000).toISOString(), hash: 'x' });
    expectError(bad, 422, 'VALIDATION_ERROR');
    expect(bad.body.error.details.map((d: any) => d.field).sort()).toEqual(['expiresAt', 'hash', 'name', 'permissions.0']);
    expect(bad.body.error.details.find((d: any) => d.field === 'expiresAt').message).toBe('expiresAt must be in the future');
    expectError(await mint({ name: 'empty', permissions: [] }), 422, 'VALIDATION_ERROR');
    expectError(await mint({ name: 'date', permissions: ['orders:read'], expiresAt: 'tomorrow' }), 422, 'VALIDATION_ERROR');
  });

  it('refuses minting a key with permissions the credential lacks (403), allows a subset', async () => {
    const limited = await createApiKey(db(), { name: 'key manager', permissions: ['api-keys:*', 'products:read'] });
    const res = await mint({ name: 'escalate', permissions: ['products:write'] }, limited.key);
    expectError(res, 403, 'AUTHORIZATION_ERROR');
    expect(res.body.error.message).toContain('products:write');
    expectError(await mint({ name: 'admin', role: 'admin' }, limited.key), 403, 'AUTHORIZATION_ERROR');
    expectError(await mint({ name: 'star', permissions: ['products:*'] }, limited.key), 403, 'AUTHORIZATION_ERROR');
    expect((await mint({ name: 'subset', permissions: ['products:read'] }, limited.key)).status).toBe(201);
  });

  it('needs api-keys:write: a vendor user is 403, nobody is 401', async () => {
    const { token } = await insertVendorUser();
    expectError(await mint({ name: 'x', permissions: ['products:read'] }, token), 403, 'AUTHORIZATION_ERROR');
    expectError(await api(PATH, { method: 'POST', json: { name: 'x' } }), 401, 'AUTHENTICATION_ERROR');
  });
});

describe('GET /api/settings/api-keys', () => {
  it('lists keys without the key or its hash, filtered by status and name', async () => {
    const token = uid();
    const active = (await mint({ name: `L${token} active`, permissions: ['orders:read'] })).body.data;
    const revoked = (await mint({ name: `L${token} revoked`, permissions: ['orders:read'] })).body.data;
    await api(`${PATH}/${revoked.id}`, { method: 'DELETE', key });
    const expired = await createApiKey(db(), { name: `L${token} expired`, permissions: ['orders:read'], expiresAt: new Date(Date.now() - 1000).toISOString() });

    const res = await api(`${PATH}?q=L${token}&sort=name`, { key });
    expect(res.status).toBe(200);
    expect(res.body.data.map((k: any) => [k.name, k.status])).toEqual([
      [`L${token} active`, 'active'],
      [`L${token} expired`, 'expired'],
      [`L${token} revoked`, 'revoked'],
    ]);
    const text = JSON.stringify(res.body);
    expect(text).not.toContain(active.key);
    expect(text).not.toMatch(/keyHash|key_hash/);
    for (const k of res.body.data) expect(k).not.toHaveProperty('key');
    const byStatus = async (status: string) => (await api(`${PATH}?q=L${token}&status=${status}`, { key })).body.data.map((k: any) => k.id);
    expect(await byStatus('active')).toEqual([active.id]);
    expect(await byStatus('revoked')).toEqual([revoked.id]);
    expect(await byStatus('expired')).toEqual([expired.record.id]);
    expectError(await api(`${PATH}?status=gone`, { key }), 400, 'INVALID_REQUEST');
    expectError(await api(`${PATH}?sort=prefix`, { key }), 400, 'INVALID_REQUEST');
  });

  it('sorts by last use', async () => {
    const token = uid();
    const used = (await mint({ name: `U${token} used`, permissions: ['products:read'] })).body.data;
    await mint({ name: `U${token} unused`, permissions: ['products:read'] });
    await api('/api/products', { key: used.key });
    await expect.poll(async () => (await api(`${PATH}/${used.id}`, { key })).body.data.lastUsedAt).not.toBeNull();
    const res = await api(`${PATH}?q=U${token}&sort=last_used_at:desc&fields=name`, { key });
    expect(res.body.data).toEqual([{ name: `U${token} used` }, { name: `U${token} unused` }]);
  });

  it('gets one key; unknown is 404; needs api-keys:read', async () => {
    const created = (await mint({ name: 'one', role: 'customer' })).body.data;
    const res = await api(`${PATH}/${created.id}`, { key });
    const { key: _secret, ...record } = created;
    expect(res.body.data).toEqual(record);
    expectError(await api(`${PATH}/key_missing`, { key }), 404, 'NOT_FOUND');
    const other = await createApiKey(db(), { name: 'products', permissions: ['products:*'] });
    expectError(await api(`${PATH}/${created.id}`, { key: other.key }), 403, 'AUTHORIZATION_ERROR');
    expectError(await api(PATH, { key: other.key }), 403, 'AUTHORIZATION_ERROR');
  });
});

describe('DELETE /api/settings/api-keys/{id}', () => {
  it('revokes: the very next request with the key is 401, and the record shows it', async () => {
    const created = (await mint({ name: 'to revoke', role: 'admin' })).body.data;
    expect((await api('/api/brands', { method: 'POST', key: created.key, json: newBrand() })).status).toBe(201);
    const res = await api(`${PATH}/${created.id}`, { method: 'DELETE', key });
    expect(res.status).toBe(204);
    expect(res.body).toBe('');
    const next = await api('/api/products', { key: created.key });
    expectError(next, 401, 'AUTHENTICATION_ERROR');
    expect(next.body.error.message).toMatch(/revoked/);
    const record = (await api(`${PATH}/${created.id}`, { key })).body.data;
    expect(record).toMatchObject({ status: 'revoked', revokedAt: expect.any(String) });
  });

  it('revoking again is 204 and keeps the first revocation time', async () => {
    const created = (await mint({ name: 'twice', permissions: ['orders:read'] })).body.data;
    await api(`${PATH}/${created.id}`, { method: 'DELETE', key });
    const first = (await api(`${PATH}/${created.id}`, { key })).body.data.revokedAt;
    await new Promise((r) => setTimeout(r, 5));
    expect((await api(`${PATH}/${created.id}`, { method: 'DELETE', key })).status).toBe(204);
    expect((await api(`${PATH}/${created.id}`, { key })).body.data.revokedAt).toBe(first);
  });

  it('404 for an unknown key; 403 without api-keys:write', async () => {
    expectError(await api(`${PATH}/key_missing`, { method: 'DELETE', key }), 404, 'NOT_FOUND');
    const reader = await createApiKey(db(), { name: 'reader', permissions: ['api-keys:read'] });
    const target = (await mint({ name: 'target', permissions: ['orders:read'] })).body.data;
    expectError(await api(`${PATH}/${target.id}`, { method: 'DELETE', key: reader.key }), 403, 'AUTHORIZATION_ERROR');
  });

  it('never stores the key in clear', async () => {
    const created = (await mint({ name: 'clear check', permissions: ['orders:read'] })).body.data;
    const dump = JSON.stringify(await env.DB.prepare('SELECT * FROM api_keys').all());
    expect(dump).not.toContain(created.key);
  });
});
