import { beforeAll, describe, expect, it } from 'vitest';
import { forgetEdgeSettings } from '../../src/middleware/edge-settings';
import { adminKey, api, createProduct, expectError } from '../helpers';

// vitest.config.ts sets CORS_ORIGINS=https://env-shop.test for the workers project.
const SHOP = 'https://shop.example';
const SUBDOMAIN = 'https://www.wild.example';
let key: string;

const preflight = (origin: string, path = '/api/products', method = 'POST', requestHeaders = 'authorization, content-type, x-cart-token') =>
  api(path, { method: 'OPTIONS', headers: { Origin: origin, 'Access-Control-Request-Method': method, 'Access-Control-Request-Headers': requestHeaders } });

beforeAll(async () => {
  key = await adminKey();
  const res = await api('/api/settings', { method: 'PATCH', key, json: { allowedOrigins: [SHOP, 'HTTPS://*.Wild.Example'] } });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.data.allowedOrigins).toEqual([SHOP, 'https://*.wild.example']);
});

describe('preflight', () => {
  it('grants an allowed origin what a storefront sends, with no D1 round trip and no rate-limit charge', async () => {
    const res = await preflight(SHOP);
    expect(res.status).toBe(204);
    expect(res.headers.get('Access-Control-Allow-Origin')).toBe(SHOP);
    expect(res.headers.get('Access-Control-Allow-Methods')).toContain('PATCH');
    const allowedHeaders = res.headers.get('Access-Control-Allow-Headers')!.toLowerCase();
    for (const name of ['authorization', 'content-type', 'x-cart-token', 'idempotency-key', 'x-d1-bookmark', 'if-none-match']) expect(allowedHeaders).toContain(name);
    expect(Number(res.headers.get('Access-Control-Max-Age'))).toBeGreaterThan(0);
    expect(res.headers.get('Vary')).toContain('Origin');
    expect(res.headers.get('X-D1-Round-Trips')).toBe('0');
    expect(res.headers.get('X-RateLimit-Remaining')).toBeNull();
  });

  it('reads the list once on a new isolate, then answers from what it kept', async () => {
    forgetEdgeSettings();
    const first = await preflight(SHOP);
    expect(first.headers.get('Access-Control-Allow-Origin')).toBe(SHOP);
    expect(first.headers.get('X-D1-Round-Trips')).toBe('1');
    expect((await preflight(SHOP)).headers.get('X-D1-Round-Trips')).toBe('0');
  });

  it('gives no grant to an origin not allowed', async () => {
    for (const origin of ['https://evil.example', 'http://shop.example', 'https://shop.example:8443', 'https://wild.example', 'https://shop.example.evil.example']) {
      const res = await preflight(origin);
      expect(res.status).toBe(204);
      expect(res.headers.get('Access-Control-Allow-Origin'), origin).toBeNull();
      expect(res.headers.get('Access-Control-Allow-Methods')).toBeNull();
    }
  });

  it('matches a wildcard pattern on any subdomain, and the environment adds origins', async () => {
    expect((await preflight(SUBDOMAIN)).headers.get('Access-Control-Allow-Origin')).toBe(SUBDOMAIN);
    expect((await preflight('https://a.b.wild.example')).headers.get('Access-Control-Allow-Origin')).toBe('https://a.b.wild.example');
    expect((await preflight('https://env-shop.test')).headers.get('Access-Control-Allow-Origin')).toBe('https://env-shop.test');
  });
});

describe('answers', () => {
  it('carry the grant of the origin asking, never of the one whose request filled a kept answer', async () => {
    await createProduct(key, { status: 'active' });
    const path = '/api/products?limit=3';
    const first = await api(path, { headers: { Origin: SHOP } });
    expect(first.status).toBe(200);
    expect(first.headers.get('Access-Control-Allow-Origin')).toBe(SHOP);
    const exposed = first.headers.get('Access-Control-Expose-Headers')!;
    for (const name of ['X-D1-Bookmark', 'X-RateLimit-Remaining', 'Retry-After', 'X-Request-Id', 'ETag', 'Location', 'X-Total-Count']) expect(exposed).toContain(name);
    expect(first.headers.get('Vary')).toContain('Origin');

    // The same URL again is a kept answer (CATALOGUE_CACHE_QUIET_MS is 1 in the tests).
    const other = await api(path, { headers: { Origin: SUBDOMAIN } });
    expect(other.headers.get('X-Store-Cache')).toMatch(/hit/);
    expect(other.headers.get('Access-Control-Allow-Origin')).toBe(SUBDOMAIN);
    const refused = await api(path, { headers: { Origin: 'https://evil.example' } });
    expect(refused.status).toBe(200);
    expect(refused.headers.get('X-Store-Cache')).toMatch(/hit/);
    expect(refused.headers.get('Access-Control-Allow-Origin')).toBeNull();
    expect(refused.headers.get('Vary')).toContain('Origin');
    const none = await api(path);
    expect(none.headers.get('Access-Control-Allow-Origin')).toBeNull();
    expect(none.headers.get('Vary')).toContain('Origin');
  });

  it('carry the grant on errors, so a page can read a 401 or 404', async () => {
    const unauthenticated = await api('/api/orders', { key: 'sk_not_a_real_key', headers: { Origin: SHOP } });
    expectError(unauthenticated, 401, 'AUTHENTICATION_ERROR');
    expect(unauthenticated.headers.get('Access-Control-Allow-Origin')).toBe(SHOP);
    const missing = await api('/api/no-such-thing', { headers: { Origin: SHOP } });
    expectError(missing, 404, 'NOT_FOUND');
    expect(missing.headers.get('Access-Control-Allow-Origin')).toBe(SHOP);
  });

  it('are never granted on the admin panel', async () => {
    const res = await api('/admin/sign-in', { headers: { Origin: SHOP } });
    expect(res.headers.get('Access-Control-Allow-Origin')).toBeNull();
    const pre = await preflight(SHOP, '/admin/sign-in');
    expect(pre.headers.get('Access-Control-Allow-Origin')).toBeNull();
  });
});

describe('allowedOrigins in the settings', () => {
  it('refuses what is not an origin or a pattern, naming the entry', async () => {
    for (const bad of ['shop.example', 'https://shop.example/', 'https://shop.example/path', 'https://*.com', 'https://shop.*.example', 'ftp://shop.example', '*']) {
      const res = await api('/api/settings', { method: 'PATCH', key, json: { allowedOrigins: [bad] } });
      expectError(res, 422, 'VALIDATION_ERROR');
      expect(JSON.stringify(res.body.error.details), bad).toContain('allowedOrigins');
    }
  });

  it('takes effect at once in the isolate that wrote it', async () => {
    const late = 'https://late.example';
    expect((await preflight(late)).headers.get('Access-Control-Allow-Origin')).toBeNull();
    const res = await api('/api/settings', { method: 'PATCH', key, json: { allowedOrigins: [SHOP, 'https://*.wild.example', late] } });
    expect(res.status).toBe(200);
    expect((await preflight(late)).headers.get('Access-Control-Allow-Origin')).toBe(late);
    expect((await api('/api/settings', { key })).body.data.allowedOrigins).toContain(late);
  });
});
