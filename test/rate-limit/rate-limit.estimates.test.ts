import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { networkOf } from '../../src/lib/client-network';
import { shardOf } from '../../src/rate-limit/address-limits';
import { MARGIN, MAX_PENDING } from '../../src/rate-limit/estimates';
import { newIp } from './client-addresses';

/**
 * Anonymous reads counted in the background (src/rate-limit/estimates.ts). This project's
 * anonymous limit (5) is within MARGIN, so every request waits; these tests run the app in this
 * isolate with a limit of 30, where the estimate has room.
 */
const LIMIT = 30;
const app = createApp();

async function send(ip: string, { method = 'GET', path = '/api/products?limit=1', settle = true } = {}) {
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(`http://store.test${path}`, { method, headers: { 'CF-Connecting-IP': ip } }), { ...env, RATE_LIMIT_ANONYMOUS: String(LIMIT) }, ctx);
  await res.arrayBuffer();
  const settled = settle ? waitOnExecutionContext(ctx) : Promise.resolve();
  await settled;
  return {
    status: res.status,
    remaining: Number(res.headers.get('X-RateLimit-Remaining')),
    background: res.headers.get('X-RateLimit-Counted') === 'background',
    settled: () => waitOnExecutionContext(ctx),
  };
}

/** The limiter of an address's network (src/lib/client-network.ts), which its requests are counted on. */
const limiterOf = (ip: string) => env.ADDRESS_LIMITER.getByName(shardOf(networkOf(ip)));
/** Requests the address's limiter has counted in its window. */
const counted = (ip: string) => limiterOf(ip).used(networkOf(ip));

describe('anonymous reads counted in the background', () => {
  it('answers a read from a new address at once, and the object still counts it', async () => {
    const ip = newIp();
    const first = await send(ip);
    expect(first.status).toBe(200);
    expect(first.background).toBe(true);
    expect(first.remaining).toBe(LIMIT - 1);
    expect(await counted(ip)).toBe(1);
    const second = await send(ip);
    expect(second.background).toBe(true);
    expect(second.remaining).toBe(LIMIT - 2);
    expect(await counted(ip)).toBe(2);
  });

  it('waits for the object near the limit, so exactly the limit passes', async () => {
    const ip = newIp();
    const results = [];
    for (let i = 0; i < LIMIT + 3; i++) results.push(await send(ip));
    expect(results.filter((r) => r.status === 200)).toHaveLength(LIMIT);
    expect(results.slice(LIMIT).map((r) => r.status)).toEqual([429, 429, 429]);
    // Far from the limit, in the background; the last MARGIN before it, and past it, waited.
    expect(results[0]!.background).toBe(true);
    expect(results.slice(LIMIT - MARGIN).every((r) => !r.background)).toBe(true);
    expect(await counted(ip)).toBe(LIMIT);
  });

  it(`lets at most ${MAX_PENDING} past the limit, for an address this isolate had no word on, then refuses`, async () => {
    const ip = newIp();
    // The address used its whole hour through other isolates.
    await limiterOf(ip).count(LIMIT, 3600, [{ address: networkOf(ip), n: LIMIT, mode: 'served' }]);
    const burst = await Promise.all(Array.from({ length: 10 }, () => send(ip, { settle: false })));
    await Promise.all(burst.map((r) => r.settled()));
    const passed = burst.filter((r) => r.status === 200).length;
    expect(passed).toBeGreaterThanOrEqual(1);
    expect(passed).toBeLessThanOrEqual(MAX_PENDING);
    expect(burst.filter((r) => r.status === 429)).toHaveLength(10 - passed);
    const after = await send(ip);
    expect(after.status).toBe(429);
    expect(after.background).toBe(false);
  });

  it('never counts a write in the background', async () => {
    const write = await send(newIp(), { method: 'POST', path: '/api/carts' });
    expect(write.status).toBe(201);
    expect(write.background).toBe(false);
  });
});
