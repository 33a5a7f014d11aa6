import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service';
import { api, db, expectError, uid } from '../helpers';
import { fromIp, hexGroup, newIp } from './client-addresses';

// This project runs with RATE_LIMIT_AUTHENTICATED=10 and RATE_LIMIT_ANONYMOUS=5 (vitest.config.ts).
const AUTHENTICATED = 10;
const SHOP = 'https://shop.example';
let pk: string;
let server: string;

beforeAll(async () => {
  pk = (await createApiKey(db(), { name: `storefront ${uid()}`, type: 'publishable', allowedOrigins: [SHOP] })).key;
  server = (await createApiKey(db(), { name: `storefront server ${uid()}`, permissions: ['storefront:buyer-ip'] })).key;
});

async function exhaust(send: () => Promise<{ status: number; body: any; headers: Headers }>) {
  for (let i = 0; i < AUTHENTICATED; i++) {
    const res = await send();
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.headers.get('X-RateLimit-Limit')).toBe(String(AUTHENTICATED));
  }
  expectError(await send(), 429, 'RATE_LIMITED');
}

describe('a publishable key', () => {
  it('counts each shopper network on its own, with the authenticated limit', async () => {
    const [a, b] = [hexGroup(), hexGroup()];
    const shopper = (ip: string) => () => api('/api/products', { key: pk, headers: { Origin: SHOP, 'CF-Connecting-IP': ip } });
    await exhaust(shopper(`2001:db8:${a}:${b}::1`));
    // The same /64 is the same shopper; another shopper on the same key is served.
    expectError(await shopper(`2001:db8:${a}:${b}::99`)(), 429, 'RATE_LIMITED');
    const other = await shopper(newIp())();
    expect(other.status).toBe(200);
    expect(other.headers.get('X-RateLimit-Remaining')).toBe(String(AUTHENTICATED - 1));
    // Nor does it spend the anonymous count of that network.
    expect((await api('/api/products', fromIp(`2001:db8:${a}:${b}::1`))).status).toBe(200);
  });

  it('pays a sign-in attempt on the client network too, as a credential would', async () => {
    const ip = newIp();
    const login = () =>
      api('/api/auth/login', {
        method: 'POST',
        key: pk,
        headers: { Origin: SHOP, 'CF-Connecting-IP': ip },
        json: { email: `nobody-${uid()}@example.test`, password: 'wrong password' },
      });
    for (let i = 0; i < 5; i++) expect((await login()).status).toBe(401);
    expectError(await login(), 429, 'RATE_LIMITED');
  });
});

describe('X-Buyer-IP', () => {
  it("counts a storefront server's request on the shopper it names, not on the key", async () => {
    const buyer = newIp();
    const asBuyer = (ip: string) => () => api('/api/products', { key: server, headers: { 'X-Buyer-IP': ip, 'CF-Connecting-IP': '192.0.2.10' } });
    await exhaust(asBuyer(buyer));
    expect((await asBuyer(newIp())()).status).toBe(200);
    // The key's own count was not spent.
    const own = await api('/api/products', { key: server, headers: { 'CF-Connecting-IP': '192.0.2.10' } });
    expect(own.status).toBe(200);
    expect(own.headers.get('X-RateLimit-Remaining')).toBe(String(AUTHENTICATED - 1));
  });
});
