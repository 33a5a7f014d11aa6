import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { AddressLimiter } from '../../src/durable-objects/address-limiter';
import { ADDRESS_SHARDS, countServed, shardOf } from '../../src/rate-limit/address-limits';

const HOUR = 3600;
const limiter = () => env.ADDRESS_LIMITER.getByName(`object-test:${crypto.randomUUID()}`);
/** Milliseconds of a UTC wall-clock time on a fixed day in the future, so no alarm of these tests fires by itself. */
const at = (hhmmss: string) => Date.parse(`2036-11-23T${hhmmss}Z`);
const asked = (address: string) => ({ address, n: 1, mode: 'asked' as const });

describe('AddressLimiter object', () => {
  it('lets exactly `limit` asked requests of one address through, however many come at once', async () => {
    const stub = limiter();
    const decisions = (await Promise.all(Array.from({ length: 40 }, () => stub.count(15, HOUR, [asked('203.0.113.1')])))).flat();
    expect(decisions.filter((d) => d.allowed)).toHaveLength(15);
    expect(
      decisions
        .filter((d) => d.allowed)
        .map((d) => d.remaining)
        .sort((a, b) => b - a),
    ).toEqual(Array.from({ length: 15 }, (_, i) => 14 - i));
    expect(await stub.used('203.0.113.1')).toBe(15);
  });

  it('keeps each address its own window, many addresses to one call', async () => {
    const stub = limiter();
    const [a, b, c] = await stub.count(5, HOUR, [asked('a'), { address: 'b', n: 3, mode: 'served' }, asked('c')], at('09:00:00'));
    expect([a!.remaining, b!.remaining, c!.remaining]).toEqual([4, 2, 4]);
    // Served requests were answered already: counted even past the limit, which then refuses the address.
    const [over] = await stub.count(5, HOUR, [{ address: 'b', n: 4, mode: 'served' }], at('09:00:01'));
    expect(over).toMatchObject({ granted: 4, remaining: 0 });
    const [refused, other] = await stub.count(5, HOUR, [asked('b'), asked('a')], at('09:00:02'));
    expect(refused).toMatchObject({ allowed: false, granted: 0, retryAfter: HOUR - 2 });
    expect(other).toMatchObject({ allowed: true, remaining: 3 });
  });

  it('slides: an address is allowed again as its requests leave the window', async () => {
    const stub = limiter();
    await stub.count(2, HOUR, [asked('x'), asked('x')], at('10:00:00'));
    expect((await stub.count(2, HOUR, [asked('x')], at('10:59:59')))[0]!.allowed).toBe(false);
    expect((await stub.count(2, HOUR, [asked('x')], at('11:00:00')))[0]).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('sweeps what left the window; an idle object ends with empty storage', async () => {
    const stub = limiter();
    await stub.count(10, HOUR, [asked('p'), asked('q')], at('08:00:00'));
    await stub.count(10, HOUR, [asked('q')], at('08:30:00'));
    expect(await stub.sweep(HOUR, at('09:10:00'))).toBe(at('09:30:01'));
    expect(await stub.used('p', at('09:10:00'))).toBe(0);
    expect(await stub.used('q', at('09:10:00'))).toBe(1);
    expect(await stub.sweep(HOUR, at('09:40:00'))).toBeNull();
    const rows = await runInDurableObject(stub, (_: AddressLimiter, state) => state.storage.sql.exec('SELECT count(*) AS n FROM hits').one().n);
    expect(rows).toBe(0);
  });

  it('sets one alarm, a window after its first count, and sweeps when it rings', async () => {
    const stub = limiter();
    await stub.count(10, HOUR, [asked('r')], at('07:00:00'));
    await stub.count(10, HOUR, [asked('s')], at('07:10:00'));
    expect(await runInDurableObject(stub, (_: AddressLimiter, state) => state.storage.getAlarm())).toBe(at('08:00:01'));
    expect(await runDurableObjectAlarm(stub)).toBe(true);
  });
});

describe('addresses over the shards', () => {
  it('spreads addresses over every shard, the same address always to the same one', () => {
    const shards = new Set(Array.from({ length: 2000 }, (_, i) => shardOf(`2001:db8::${i.toString(16)}`)));
    expect(shards.size).toBe(ADDRESS_SHARDS);
    expect(shardOf('198.51.100.7')).toBe(shardOf('198.51.100.7'));
  });

  it('counts requests served together in one batch, each address by its own', async () => {
    const first = `192.0.2.${Math.floor(Math.random() * 200)}`;
    const same = Array.from({ length: 5000 }, (_, i) => `10.${i >> 8}.${i & 255}.9`).find((a) => a !== first && shardOf(a) === shardOf(first))!;
    const calls: Promise<unknown>[] = [];
    const verdicts: { address: string; remaining?: number; n: number }[] = [];
    for (const address of [first, same, first]) {
      countServed(
        env,
        50,
        HOUR,
        address,
        (call) => calls.push(call),
        (a, decision, n) => verdicts.push({ address: a, remaining: decision?.remaining, n }),
      );
    }
    // One call for the shard, made in the background of the request that opened the batch.
    expect(calls).toHaveLength(1);
    await Promise.all(calls);
    expect(verdicts).toEqual([
      { address: first, remaining: 48, n: 2 },
      { address: same, remaining: 49, n: 1 },
    ]);
    expect(await env.ADDRESS_LIMITER.getByName(shardOf(first)).used(first)).toBe(2);
  });
});
