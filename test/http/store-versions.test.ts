import { afterEach, describe, expect, it } from 'vitest';
import { DETAIL_CODES, describe as wordedProblem } from '../../src/lib/errors';
import { FIRST_VERSION, LATEST_VERSION, VERSIONS } from '../../src/versions/versions';
import { adminKey, api, createBrand, uid } from '../helpers';

/** The five bad list parameters a client written to the published specification reads `details.field` of. */
const BAD_PARAMETERS = [
  ['/api/products?limit=100000', 'limit'],
  ['/api/products?page=abc', 'page'],
  ['/api/products?sort=nosuchfield:asc', 'sort'],
  ['/api/products?fields=nosuchfield', 'fields'],
  ['/api/products?price_min=cheap', 'price_min'],
] as const;

const inVersion = (version: string) => ({ 'Store-Version': version });

async function setStoreDefault(key: string, apiVersion: string) {
  const res = await api('/api/settings', { method: 'PATCH', key, json: { apiVersion } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.data.apiVersion).toBe(apiVersion);
}

describe('dated versions', () => {
  let key: string;
  afterEach(async () => {
    if (key) await setStoreDefault(key, FIRST_VERSION);
  });

  it('GET /api lists the versions, oldest first, the latest, the default and the one it answers in', async () => {
    const res = await api('/api');
    expect(res.body.data.versions.map((v: { version: string }) => v.version)).toEqual(VERSIONS.map((v) => v.version));
    expect(res.body.data.versions[0]).toEqual({ version: '2026-11-20', summary: expect.stringContaining('published contract') });
    expect(res.body.data).toMatchObject({ latestVersion: LATEST_VERSION, defaultVersion: FIRST_VERSION, storeVersion: FIRST_VERSION });
    expect(res.headers.get('Store-Version')).toBe(FIRST_VERSION);
    const asked = await api('/api/v1', { headers: inVersion(LATEST_VERSION) });
    expect(asked.body.data.storeVersion).toBe(LATEST_VERSION);
    expect(asked.headers.get('Store-Version')).toBe(LATEST_VERSION);
  });

  it('answers a client written to the published specification, sending no header, with details { field, issue }', async () => {
    for (const [path, field] of BAD_PARAMETERS) {
      const res = await api(path);
      expect(res.status, path).toBe(400);
      expect(res.headers.get('Store-Version')).toBe(FIRST_VERSION);
      expect(res.body.success).toBe(false);
      expect(res.body.error.code).toBe('INVALID_REQUEST');
      expect(res.body.error.details, path).toMatchObject({ field, issue: expect.any(String) });
      expect(res.body.error.details.issue.startsWith(field)).toBe(false);
      // The message is the field's name then its issue, worded as every detail is (src/lib/errors.ts).
      expect(res.body.error.details.message).toBe(wordedProblem(field, res.body.error.details.issue));
    }
    key = await adminKey();
    const invalid = await api('/api/products', { method: 'POST', key, json: { name: '', price: -1 } });
    expect(invalid.status).toBe(422);
    expect(invalid.body.error.details).toEqual([
      { field: 'name', code: 'too_small', message: 'name must not be empty' },
      { field: 'price', code: 'too_small', message: 'price must be 0 or more' },
    ]);
  });

  it('answers the same requests in the latest shape when the header asks for it', async () => {
    for (const [path, field] of BAD_PARAMETERS) {
      const res = await api(path, { headers: inVersion(LATEST_VERSION) });
      expect(res.status, path).toBe(400);
      expect(res.headers.get('Store-Version')).toBe(LATEST_VERSION);
      expect(res.body.error.details, path).toEqual([{ field, code: expect.any(String), message: expect.stringMatching(new RegExp(`^${field}`)) }]);
    }
  });

  it('refuses an unknown version in the header with a 400 naming Store-Version', async () => {
    for (const asked of ['2026-11-21', 'latest', '2020-01-01']) {
      const res = await api('/api/products', { headers: inVersion(asked) });
      expect(res.status, asked).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'Store-Version', issue: expect.stringContaining(LATEST_VERSION) } });
      expect(res.headers.get('Store-Version')).toBe(FIRST_VERSION);
    }
  });

  it("answers a key's requests in the version pinned on it, with no header, until the header or a change says otherwise", async () => {
    key = await adminKey();
    const minted = await api('/api/settings/api-keys', { method: 'POST', key, json: { name: 'new client', permissions: ['products:read'], apiVersion: LATEST_VERSION } });
    expect(minted.status, JSON.stringify(minted.body)).toBe(201);
    expect(minted.body.data.apiVersion).toBe(LATEST_VERSION);
    const pinned = minted.body.data.key;
    const latest = await api('/api/products?limit=100000', { key: pinned });
    expect(latest.headers.get('Store-Version')).toBe(LATEST_VERSION);
    expect(latest.body.error.details).toEqual([expect.objectContaining({ field: 'limit' })]);
    const older = await api('/api/products?limit=100000', { key: pinned, headers: inVersion(FIRST_VERSION) });
    expect(older.body.error.details).toMatchObject({ field: 'limit' });

    const repinned = await api(`/api/settings/api-keys/${minted.body.data.id}`, { method: 'PATCH', key, json: { apiVersion: FIRST_VERSION } });
    expect(repinned.status, JSON.stringify(repinned.body)).toBe(200);
    expect(repinned.body.data.apiVersion).toBe(FIRST_VERSION);
    expect((await api('/api/products?limit=100000', { key: pinned })).body.error.details).toMatchObject({ field: 'limit' });
    expect((await api(`/api/settings/api-keys/${minted.body.data.id}`, { key })).body.data.apiVersion).toBe(FIRST_VERSION);
    const bad = await api(`/api/settings/api-keys/${minted.body.data.id}`, { method: 'PATCH', key, json: { apiVersion: '2030-01-01', permissions: ['*'] } });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['apiVersion', 'permissions']);
  });

  it("pins a new key to the store's default, and answers requests without key or header in it", async () => {
    key = await adminKey();
    const before = await api('/api/settings/api-keys', { method: 'POST', key, json: { name: 'old client', permissions: ['products:read'] } });
    expect(before.body.data.apiVersion).toBe(FIRST_VERSION);
    await setStoreDefault(key, LATEST_VERSION);
    expect((await api('/api/products?page=abc')).body.error.details).toEqual([expect.objectContaining({ field: 'page' })]);
    expect((await api('/api')).body.data.defaultVersion).toBe(LATEST_VERSION);
    const after = await api('/api/settings/api-keys', { method: 'POST', key, json: { name: 'new client', permissions: ['products:read'] } });
    expect(after.body.data.apiVersion).toBe(LATEST_VERSION);
    // The key minted before keeps the version it was minted on.
    expect((await api('/api/products?page=abc', { key: before.body.data.key })).body.error.details).toMatchObject({ field: 'page', issue: expect.any(String) });
    const refused = await api('/api/settings', { method: 'PATCH', key, json: { apiVersion: 'v2' } });
    expect(refused.status).toBe(422);
    expect(refused.body.error.details[0].field).toBe('apiVersion');
  });

  it('answers a publishable key in the version pinned on it', async () => {
    key = await adminKey();
    const shop = 'https://shop.example';
    const minted = await api('/api/settings/api-keys', {
      method: 'POST',
      key,
      json: { name: 'storefront', type: 'publishable', allowedOrigins: [shop], apiVersion: LATEST_VERSION },
    });
    expect(minted.status, JSON.stringify(minted.body)).toBe(201);
    const res = await api('/api/products?limit=0', { key: minted.body.data.key, headers: { Origin: shop } });
    expect(res.headers.get('Store-Version')).toBe(LATEST_VERSION);
    expect(Array.isArray(res.body.error.details)).toBe(true);
  });
});

describe('the error envelope in every version', () => {
  /** The rule of `details` in `version`: INVALID_REQUEST one object before 2026-11-28, every other error (and every error since) a list. */
  function expectEnvelope(res: { status: number; body: any; headers: Headers }, version: string, status: number, code: string) {
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.headers.get('Store-Version')).toBe(version);
    expect(res.body).toEqual({ success: false, error: { code, message: expect.any(String), details: expect.anything() } });
    const { details } = res.body.error;
    if (code === 'INVALID_REQUEST' && version < '2026-11-28') {
      expect(details).toEqual({ field: expect.any(String), issue: expect.any(String), ...(details.code ? { code: details.code, message: details.message } : {}) });
      return [details];
    }
    expect(Array.isArray(details), JSON.stringify(details)).toBe(true);
    for (const detail of details) {
      expect(Object.keys(DETAIL_CODES)).toContain(detail.code);
      if (detail.field !== undefined) expect(detail.message.startsWith(detail.field)).toBe(true);
    }
    return details;
  }

  for (const { version } of VERSIONS) {
    it(`holds on 400, 401, 403, 404, 409, 413, 415 and 422 in ${version}`, async () => {
      const headers = inVersion(version);
      const key = await adminKey();
      const brand = await createBrand(key);
      const reader = (await api('/api/settings/api-keys', { method: 'POST', key, json: { name: 'reader', permissions: ['products:read'] } })).body.data.key;
      expectEnvelope(await api('/api/products?limit=abc', { headers }), version, 400, 'INVALID_REQUEST');
      expectEnvelope(await api('/api/products?colour=red', { headers }), version, 400, 'INVALID_REQUEST');
      expect(expectEnvelope(await api('/api/products', { headers, key: `sk_${'Z'.repeat(40)}` }), version, 401, 'AUTHENTICATION_ERROR')).toEqual([]);
      expect(expectEnvelope(await api('/api/products', { method: 'POST', headers, key: reader, json: { name: 'x', price: 1 } }), version, 403, 'AUTHORIZATION_ERROR')).toEqual([]);
      expect(expectEnvelope(await api('/api/products/prod_nope', { headers }), version, 404, 'NOT_FOUND')).toEqual([]);
      expect(expectEnvelope(await api('/api/nowhere', { headers }), version, 404, 'NOT_FOUND')).toEqual([]);
      expect(expectEnvelope(await api('/api/brands', { method: 'POST', key, headers, json: { name: `Again ${uid()}`, slug: brand.slug } }), version, 409, 'CONFLICT')).toEqual([
        expect.objectContaining({ field: 'slug' }),
      ]);
      const big = JSON.stringify({ name: 'x', description: 'a'.repeat(70_000) });
      const tooBig = expectEnvelope(
        await api('/api/brands', { method: 'POST', key, headers: { ...headers, 'Content-Type': 'application/json' }, body: big }),
        version,
        413,
        'INVALID_REQUEST',
      );
      expect(tooBig[0].field).toBe('body');
      expectEnvelope(await api('/api/brands', { method: 'POST', key, headers: { ...headers, 'Content-Type': 'text/plain' }, body: 'x' }), version, 415, 'INVALID_REQUEST');
      expectEnvelope(await api('/api/brands', { method: 'POST', key, headers: { ...headers, 'Content-Type': 'application/json' }, body: '{' }), version, 400, 'INVALID_REQUEST');
      const invalid = expectEnvelope(await api('/api/products', { method: 'POST', key, headers, json: { name: '', price: -1 } }), version, 422, 'VALIDATION_ERROR');
      expect(invalid.map((d: { field: string }) => d.field)).toEqual(['name', 'price']);
      const ok = await api('/api/products?limit=1', { headers });
      expect(ok.body).toMatchObject({ success: true, data: expect.any(Array), pagination: { page: 1, limit: 1 } });
      expect(ok.headers.get('Store-Version')).toBe(version);
    });
  }
});

describe('the OpenAPI document per version', () => {
  it("serves the store's default version, and another by ?version=, each saying which", async () => {
    const byDefault = await api('/api/openapi.json');
    expect(byDefault.body.info.version).toBe(FIRST_VERSION);
    expect(byDefault.body.components.schemas.Error.properties.error.properties.details.oneOf).toHaveLength(2);
    expect(byDefault.body.components.schemas.ParameterIssue.required).toEqual(['field', 'issue']);
    const latest = await api(`/api/openapi.json?version=${LATEST_VERSION}`);
    expect(latest.body.info.version).toBe(LATEST_VERSION);
    expect(latest.body.components.schemas.Error.properties.error.properties.details.type).toBe('array');
    expect(latest.body.components.schemas.ParameterIssue).toBeUndefined();
    expect(latest.headers.get('ETag')).not.toBe(byDefault.headers.get('ETag'));
    const bad = await api('/api/openapi.json?version=tomorrow');
    expect(bad.status).toBe(400);
    expect(bad.body.error.details).toMatchObject({ field: 'version' });
  });
});
