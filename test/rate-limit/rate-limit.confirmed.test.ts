import { env } from 'cloudflare:workers';
import { listDurableObjectIds } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { apiKeyBucket } from '../../src/middleware/auth';
import { signIn } from '../admin/panel-client';
import { api, expectError, insertUser, TEST_PASSWORD, uid } from '../helpers';
import { fromIp, newIp } from './client-addresses';

// This project runs with RATE_LIMIT_ANONYMOUS=5 and RATE_LIMIT_AUTHENTICATED=10 (vitest.config.ts).
const ANONYMOUS = 5;
const AUTHENTICATED = 10;

/** Only a credential D1 has confirmed is charged on its own bucket (issue 15, findings 6 to 8). */
describe('rate limits charge confirmed credentials only', () => {
  it("a retired token cannot use up its owner's allowance", async () => {
    const { token: old, user } = await insertUser();
    const changed = await api('/api/auth/password', { method: 'POST', key: old, json: { currentPassword: TEST_PASSWORD, newPassword: 'a fresh password here' } });
    expect(changed.status).toBe(200);
    const fresh = changed.body.data.token as string;
    for (let i = 0; i < AUTHENTICATED + 2; i++) {
      const res = await api('/api/products', { key: old, ...fromIp(newIp()) });
      expectError(res, 401, 'AUTHENTICATION_ERROR');
      // Counted where an unauthenticated request is: its IP.
      expect(res.headers.get('X-RateLimit-Limit')).toBe(String(ANONYMOUS));
    }
    const res = await api('/api/products', { key: fresh, ...fromIp(newIp()) });
    expect(res.status).toBe(200);
    // The password change itself was the one request charged to the user before this one.
    expect(res.headers.get('X-RateLimit-Remaining')).toBe(String(AUTHENTICATED - 2));
    expect(user.id).toBeTruthy();
  });

  it('a made-up API key creates no rate-limit object of its own', async () => {
    const made = `sk_${uid()}${'Q'.repeat(40)}`.slice(0, 43);
    const res = await api('/api/products', { key: made, ...fromIp(newIp()) });
    expectError(res, 401, 'AUTHENTICATION_ERROR');
    const object = env.RATE_LIMITER.idFromName(await apiKeyBucket(made)).toString();
    const ids = (await listDurableObjectIds(env.RATE_LIMITER)).map((id) => id.toString());
    expect(ids.length).toBeGreaterThan(0); // the IP's object
    expect(ids).not.toContain(object);
  });

  it('a key of the wrong shape is counted on the client IP and creates no rate-limit object', async () => {
    const misshapen = `sk_${uid()}${'Q'.repeat(40)}`.slice(0, 44); // one character too long
    const ip = newIp();
    const first = await api('/api/products', { key: misshapen, ...fromIp(ip) });
    expectError(first, 401, 'AUTHENTICATION_ERROR');
    expect(first.body.error.message).toBe('Invalid API key');
    expect(first.headers.get('X-RateLimit-Limit')).toBe(String(ANONYMOUS));
    const anonymous = await api('/api/products', fromIp(ip));
    expect(anonymous.headers.get('X-RateLimit-Remaining')).toBe(String(ANONYMOUS - 2));
    const object = env.RATE_LIMITER.idFromName(await apiKeyBucket(misshapen)).toString();
    const ids = (await listDurableObjectIds(env.RATE_LIMITER)).map((id) => id.toString());
    expect(ids).not.toContain(object);
  });

  it('counts every login attempt on the client IP, whatever credential it carries', async () => {
    const { token } = await insertUser();
    const ip = newIp();
    const attempt = () => api('/api/auth/login', { method: 'POST', key: token, json: { email: `nobody-${uid()}@example.test`, password: 'guessing' }, ...fromIp(ip) });
    for (let i = 0; i < ANONYMOUS; i++) expectError(await attempt(), 401, 'AUTHENTICATION_ERROR');
    expectError(await attempt(), 429, 'RATE_LIMITED');
  });
});

describe('admin panel sign-in', () => {
  it('is counted on the client IP like the API login', async () => {
    const address = newIp();
    for (let i = 0; i < ANONYMOUS; i++) expect((await signIn(`nobody-${uid()}@example.test`, 'guessing', address)).res.status).toBe(401);
    const limited = await signIn(`nobody-${uid()}@example.test`, 'guessing', address);
    expect(limited.res.status).toBe(429);
    expect(limited.html).toContain('Rate limit');
  });
});
