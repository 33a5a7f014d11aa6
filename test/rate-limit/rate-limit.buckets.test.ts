import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiKeys, users } from '../../src/db/schema';
import { signUserToken } from '../../src/lib/jwt';
import { apiKeyBucket } from '../../src/middleware/auth';
import { hashApiKey } from '../../src/middleware/credentials/api-key-format';
import { adminKey, api, db, insertUser } from '../helpers';
import { fromIp, newIp } from './client-addresses';

// This project runs with RATE_LIMIT_ANONYMOUS=5 and RATE_LIMIT_AUTHENTICATED=10 (vitest.config.ts).
const ANONYMOUS = 5;
const AUTHENTICATED = 10;
/** Hits a bucket directly; what it reports shows how many requests the API counted there. */
const peek = (name: string, limit: number) => env.RATE_LIMITER.getByName(name).hit(limit, 3600);

describe('rate-limit buckets are known before the credential is looked up', () => {
  it('counts an API key under key: + the first 16 hex of its SHA-256', async () => {
    const key = await adminKey();
    const name = await apiKeyBucket(key);
    expect(name).toMatch(/^key:[0-9a-f]{16}$/);
    for (let i = 0; i < 3; i++) expect((await api('/api/products', { key, ...fromIp(newIp()) })).status).toBe(200);
    expect((await peek(name, AUTHENTICATED)).remaining).toBe(AUTHENTICATED - 4);
  });

  it('counts a JWT under user:<sub> from its verified claims', async () => {
    const { user, token } = await insertUser();
    expect((await api('/api/products', { key: token })).status).toBe(200);
    expect((await peek(`user:${user.id}`, AUTHENTICATED)).remaining).toBe(AUTHENTICATED - 2);
  });

  it('charges the client IP when a key the limiter already counted turns out revoked, and answers with the IP bucket', async () => {
    const key = await adminKey();
    // The key's own bucket is exhausted: that must not decide the answer once the key fails.
    for (let i = 0; i < AUTHENTICATED; i++) await peek(await apiKeyBucket(key), AUTHENTICATED);
    await db()
      .update(apiKeys)
      .set({ revokedAt: new Date().toISOString() })
      .where(eq(apiKeys.keyHash, await hashApiKey(key)));
    const ip = newIp();
    const res = await api('/api/products', { key, ...fromIp(ip) });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('AUTHENTICATION_ERROR');
    expect(res.headers.get('X-RateLimit-Limit')).toBe(String(ANONYMOUS));
    expect(res.headers.get('X-RateLimit-Remaining')).toBe(String(ANONYMOUS - 1));
    expect((await api('/api/products', fromIp(ip))).headers.get('X-RateLimit-Remaining')).toBe(String(ANONYMOUS - 2));
  });

  it('charges the client IP when a well-signed token names a disabled user or an old token version', async () => {
    const { user, token } = await insertUser();
    const stale = (await signUserToken(user.id, user.tokenVersion + 1, env.JWT_SECRET!, 3600)).token;
    const ip = newIp();
    const first = await api('/api/products', { key: stale, ...fromIp(ip) });
    expect(first.status).toBe(401);
    expect(first.headers.get('X-RateLimit-Remaining')).toBe(String(ANONYMOUS - 1));
    await db().update(users).set({ status: 'disabled' }).where(eq(users.id, user.id));
    const second = await api('/api/products', { key: token, ...fromIp(ip) });
    expect(second.status).toBe(401);
    expect(second.headers.get('X-RateLimit-Limit')).toBe(String(ANONYMOUS));
    expect(second.headers.get('X-RateLimit-Remaining')).toBe(String(ANONYMOUS - 2));
  });

  it('charges only the client IP for a token whose signature fails (no user bucket is claimed)', async () => {
    const ip = newIp();
    const forged = (await signUserToken('usr_forged', 0, 'another-secret', 3600)).token;
    const res = await api('/api/products', { key: forged, ...fromIp(ip) });
    expect(res.status).toBe(401);
    expect(res.headers.get('X-RateLimit-Remaining')).toBe(String(ANONYMOUS - 1));
    expect((await peek('user:usr_forged', AUTHENTICATED)).remaining).toBe(AUTHENTICATED - 1);
  });

  it('shows auth and ratelimit in Server-Timing for a credentialed request', async () => {
    const key = await adminKey();
    const res = await api('/api/products', { key });
    expect(res.headers.get('Server-Timing')).toMatch(/auth;dur=[\d.]+.*ratelimit;dur=[\d.]+/);
  });
});
