import { describe, expect, it } from 'vitest';
import { api, expectError, uid } from '../helpers';
import { fromIp, hexGroup } from './client-addresses';

// This project runs with RATE_LIMIT_ANONYMOUS=5 (vitest.config.ts).
const ANONYMOUS = 5;
const products = (ip: string) => api('/api/products', fromIp(ip));

async function exhaust(ip: string) {
  for (let i = 0; i < ANONYMOUS; i++) expect((await products(ip)).status).toBe(200);
  expectError(await products(ip), 429, 'RATE_LIMITED');
}

/** The anonymous limit counts a client's network (src/lib/client-network.ts): an IPv6 /64, an IPv4 address. */
describe('anonymous rate limit per network', () => {
  it('counts every address of an IPv6 /64, however written, as one client; the next /64 is served', async () => {
    const [a, b] = [hexGroup(), hexGroup()];
    await exhaust(`2001:db8:${a}:${b}::1`);
    expectError(await products(`2001:db8:${a}:${b}::2`), 429, 'RATE_LIMITED');
    expectError(await products(`2001:DB8:${a}:${b}:ABCD:EF01:2345:6789`.toUpperCase()), 429, 'RATE_LIMITED');
    expectError(await products(`2001:0db8:${a}:${b}:0:0:0:3%eth0`), 429, 'RATE_LIMITED');
    expect((await products(`2001:db8:${a}:${(parseInt(b, 16) ^ 1).toString(16)}::1`)).status).toBe(200);
  });

  it('counts an IPv4 client per address, whether it comes as IPv4 or IPv4-mapped IPv6', async () => {
    const octet = () => Math.floor(Math.random() * 254) + 1;
    const ip = `10.${octet()}.${octet()}.${octet()}`;
    await exhaust(`::ffff:${ip}`);
    expectError(await products(ip), 429, 'RATE_LIMITED');
    const neighbour = ip.replace(/\.(\d+)$/, (_, last: string) => `.${(Number(last) % 254) + 1}`);
    expect((await products(neighbour)).status).toBe(200);
  });

  it('gives a header that is not an address a bucket of its own, and never fails on it', async () => {
    await exhaust(`not an address ${uid()} ${'x'.repeat(500)}`);
    expect((await products(`not an address ${uid()}`)).status).toBe(200);
  });
});
