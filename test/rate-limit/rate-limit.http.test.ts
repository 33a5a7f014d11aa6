import { describe, expect, it } from 'vitest';
import { adminKey, api, expectError, insertUser } from '../helpers';
import { fromIp, newIp } from './client-addresses';

// This project runs with RATE_LIMIT_ANONYMOUS=5 and RATE_LIMIT_AUTHENTICATED=10 (vitest.config.ts).
const ANONYMOUS = 5;
const AUTHENTICATED = 10;

describe('rate limits over HTTP', () => {
  it('counts anonymous requests per client IP and says so in the headers', async () => {
    const ip = newIp();
    const before = Math.floor(Date.now() / 1000);
    for (let i = 1; i <= ANONYMOUS; i++) {
      const res = await api('/api/products', fromIp(ip));
      expect(res.status).toBe(200);
      expect(res.headers.get('X-RateLimit-Limit')).toBe(String(ANONYMOUS));
      expect(res.headers.get('X-RateLimit-Remaining')).toBe(String(ANONYMOUS - i));
      const reset = Number(res.headers.get('X-RateLimit-Reset'));
      expect(reset).toBeGreaterThanOrEqual(before + 3600);
      expect(reset).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 3600);
      expect(res.headers.get('RateLimit-Policy')).toBe(`"hourly";q=${ANONYMOUS};w=3600`);
      expect(res.headers.get('Server-Timing')).toMatch(/auth;dur=[\d.]+.*ratelimit;dur=[\d.]+/);
      expect(res.headers.get('RateLimit')).toMatch(new RegExp(`^"hourly";r=${ANONYMOUS - i};t=\\d+$`));
    }
    const limited = await api('/api/products', fromIp(ip));
    expect(limited.status).toBe(429);
    expect(limited.body.success).toBe(false);
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    expect(limited.body.error.details).toEqual([]);
    expect(limited.headers.get('X-RateLimit-Remaining')).toBe('0');
    const retryAfter = Number(limited.headers.get('Retry-After'));
    expect(retryAfter).toBeGreaterThan(3500);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    // Another IP has its own bucket.
    expect((await api('/api/products', fromIp(newIp()))).status).toBe(200);
  });

  it('lets exactly the limit through when requests arrive at once', async () => {
    const key = await adminKey();
    const results = await Promise.all(Array.from({ length: AUTHENTICATED + 6 }, () => api('/api/products', { key })));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(AUTHENTICATED);
    expect(statuses.filter((s) => s === 429)).toHaveLength(6);
  });

  it('gives each API key its own, larger allowance, whatever IP it comes from', async () => {
    const ip = newIp();
    for (let i = 0; i < ANONYMOUS; i++) await api('/api/products', fromIp(ip));
    expect((await api('/api/products', fromIp(ip))).status).toBe(429);
    const key = await adminKey();
    const res = await api('/api/products', { key, ...fromIp(ip) });
    expect(res.status).toBe(200);
    expect(res.headers.get('X-RateLimit-Limit')).toBe(String(AUTHENTICATED));
    expect(res.headers.get('X-RateLimit-Remaining')).toBe(String(AUTHENTICATED - 1));
  });

  it('counts a signed-in user per user, across its tokens', async () => {
    const { token } = await insertUser();
    const first = await api('/api/products', { key: token, ...fromIp(newIp()) });
    const second = await api('/api/products', { key: token, ...fromIp(newIp()) });
    expect(first.headers.get('X-RateLimit-Limit')).toBe(String(AUTHENTICATED));
    expect(Number(second.headers.get('X-RateLimit-Remaining'))).toBe(Number(first.headers.get('X-RateLimit-Remaining')) - 1);
  });

  it('counts a request with a bad credential against its IP, then refuses it with 401', async () => {
    const ip = newIp();
    const res = await api('/api/products', { key: `sk_${'Z'.repeat(40)}`, ...fromIp(ip) });
    expect(res.status).toBe(401);
    expect(res.headers.get('X-RateLimit-Limit')).toBe(String(ANONYMOUS));
    expect(res.headers.get('X-RateLimit-Remaining')).toBe(String(ANONYMOUS - 1));
    // The anonymous bucket of that IP was charged.
    expect((await api('/api/products', fromIp(ip))).headers.get('X-RateLimit-Remaining')).toBe(String(ANONYMOUS - 2));
    // Once the IP is used up, bad credentials get 429 like any unauthenticated request.
    for (let i = 0; i < ANONYMOUS; i++) await api('/api/products', fromIp(ip));
    expect((await api('/api/products', { key: `sk_${'Z'.repeat(40)}`, ...fromIp(ip) })).status).toBe(429);
  });

  it('never counts health checks or the index of links', async () => {
    const ip = newIp();
    for (let i = 0; i < ANONYMOUS + 3; i++) {
      const res = await api(i % 2 ? '/api/health' : '/api/v1', fromIp(ip));
      expect(res.status).toBe(200);
      expect(res.headers.get('X-RateLimit-Limit')).toBeNull();
    }
    expect((await api('/api/products', fromIp(ip))).headers.get('X-RateLimit-Remaining')).toBe(String(ANONYMOUS - 1));
  });

  it('counts the OpenAPI document like any read, and refuses it to an address at its limit', async () => {
    const ip = newIp();
    const res = await api('/api/v1/openapi.json', fromIp(ip));
    expect(res.status).toBe(200);
    expect(res.headers.get('X-RateLimit-Remaining')).toBe(String(ANONYMOUS - 1));
    // A 304 is counted too.
    const revalidated = await api('/api/openapi.json', fromIp(ip, { 'If-None-Match': res.headers.get('ETag')! }));
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers.get('X-RateLimit-Remaining')).toBe(String(ANONYMOUS - 2));
    for (let i = 2; i < ANONYMOUS; i++) expect((await api('/api/products', fromIp(ip))).status).toBe(200);
    for (const path of ['/api/openapi.json', '/api/v1/openapi.json']) expectError(await api(path, fromIp(ip)), 429, 'RATE_LIMITED');
    // Building the document is the isolate's first (seconds on a loaded two-core machine): a bound for that, not a speed target.
  }, 60_000);
});
