import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { RateLimiter } from '../../src/durable-objects/rate-limiter';

const HOUR = 3600;
const limiter = () => env.RATE_LIMITER.getByName(`object-test:${crypto.randomUUID()}`);
/** Milliseconds of a UTC wall-clock time on a fixed day in the future, so no alarm of these tests fires by itself. */
const at = (hhmmss: string) => Date.parse(`2036-11-23T${hhmmss}Z`);

describe('RateLimiter object', () => {
  it('lets exactly `limit` of many concurrent hits through', async () => {
    const stub = limiter();
    const decisions = await Promise.all(Array.from({ length: 60 }, () => stub.hit(25, HOUR)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(25);
    expect(decisions.filter((d) => !d.allowed)).toHaveLength(35);
    // Remaining counts down one per allowed hit, without gaps or repeats.
    const remaining = decisions
      .filter((d) => d.allowed)
      .map((d) => d.remaining)
      .sort((a, b) => b - a);
    expect(remaining).toEqual(Array.from({ length: 25 }, (_, i) => 24 - i));
  });

  it('slides: a client cannot get twice the limit by straddling the top of the hour', async () => {
    const stub = limiter();
    for (let i = 0; i < 5; i++) expect((await stub.hit(5, HOUR, at('10:59:30'))).allowed).toBe(true);
    // One minute later the clock hour has changed, but the five hits are still inside the window.
    const after = await stub.hit(5, HOUR, at('11:00:30'));
    expect(after.allowed).toBe(false);
    expect(after.remaining).toBe(0);
    expect(after.reset).toBe(at('11:59:30') / 1000);
    expect(after.retryAfter).toBe(HOUR - 60);
    // One second before the hits leave the window: still refused; at that second: allowed again.
    expect((await stub.hit(5, HOUR, at('11:59:29'))).allowed).toBe(false);
    const freed = await stub.hit(5, HOUR, at('11:59:30'));
    expect(freed).toMatchObject({ allowed: true, remaining: 4 });
  });

  it('frees slots one by one as old hits leave the window', async () => {
    const stub = limiter();
    await stub.hit(3, HOUR, at('08:00:00'));
    await stub.hit(3, HOUR, at('08:20:00'));
    await stub.hit(3, HOUR, at('08:40:00'));
    const full = await stub.hit(3, HOUR, at('08:50:00'));
    expect(full).toMatchObject({ allowed: false, retryAfter: 10 * 60, reset: at('09:00:00') / 1000 });
    expect(await stub.hit(3, HOUR, at('09:00:00'))).toMatchObject({ allowed: true, remaining: 0, reset: at('09:20:00') / 1000 });
    expect((await stub.hit(3, HOUR, at('09:10:00'))).allowed).toBe(false);
  });

  it('reports the reset as the time the oldest counted hit leaves the window', async () => {
    const stub = limiter();
    const first = await stub.hit(10, HOUR, at('12:00:00'));
    expect(first).toMatchObject({ allowed: true, limit: 10, remaining: 9, reset: at('13:00:00') / 1000, retryAfter: 0 });
    const second = await stub.hit(10, HOUR, at('12:30:00'));
    expect(second.reset).toBe(at('13:00:00') / 1000);
  });

  it('sets one alarm for when its oldest count leaves the window, not one per hit', async () => {
    const stub = limiter();
    await stub.hit(5, HOUR, at('07:00:00'));
    await stub.hit(5, HOUR, at('07:00:09'));
    await stub.hit(5, HOUR, at('07:30:00'));
    const alarm = await runInDurableObject(stub, (_: RateLimiter, state) => state.storage.getAlarm());
    expect(alarm).toBe(at('08:00:01'));
  });

  it('sweeps what left the window and re-arms for the next exit; an idle key ends with empty storage', async () => {
    const stub = limiter();
    await stub.hit(5, HOUR, at('07:00:00'));
    await stub.hit(5, HOUR, at('07:30:00'));
    const rows = () => runInDurableObject(stub, (_: RateLimiter, state) => state.storage.sql.exec('SELECT count(*) AS n FROM hits').one().n);
    // At 08:00:01 the 07:00:00 hit has left; the 07:30 one stays and is the next exit.
    expect(await runInDurableObject(stub, (o: RateLimiter) => o.sweep(HOUR, at('08:00:01')))).toBe(at('08:30:01'));
    expect(await rows()).toBe(1);
    expect(await stub.hit(5, HOUR, at('08:00:02'))).toMatchObject({ allowed: true, remaining: 3, reset: at('08:30:00') / 1000 });
    // An hour after the last hit nothing is left: the storage is dropped.
    expect(await runInDurableObject(stub, (o: RateLimiter) => o.sweep(HOUR, at('09:00:03')))).toBeNull();
    expect(await rows()).toBe(0);
    expect(await stub.hit(5, HOUR, at('09:00:04'))).toMatchObject({ allowed: true, remaining: 4 });
  });

  it('runs its alarm: a key whose hits are older than the window is cleared', async () => {
    const stub = limiter();
    // Hits stamped two hours ago (the real clock is what the alarm sweeps against).
    await stub.hit(2, HOUR, Date.now() - 2 * HOUR * 1000);
    await runDurableObjectAlarm(stub);
    const rows = await runInDurableObject(stub, (_: RateLimiter, state) => state.storage.sql.exec('SELECT count(*) AS n FROM hits').one().n);
    expect(rows).toBe(0);
    expect(await stub.hit(2, HOUR)).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('reloads its counts from storage after a restart', async () => {
    const stub = limiter();
    for (let i = 0; i < 3; i++) await stub.hit(4, HOUR, at('10:00:00'));
    // A new instance of the object reads the counts back (memory is only a cache).
    await runInDurableObject(stub, (o: RateLimiter) => {
      (o as unknown as { window: unknown }).window = null;
    });
    expect(await stub.hit(4, HOUR, at('10:00:01'))).toMatchObject({ allowed: true, remaining: 0 });
    expect((await stub.hit(4, HOUR, at('10:00:02'))).allowed).toBe(false);
  });

  it('leases hits in advance to a busy key far from its limit, one by one near it, and takes back what was not used', async () => {
    const stub = limiter();
    const t = at('14:00:00');
    // Not busy yet: one hit per call, whatever the lease asked for.
    for (let i = 0; i < 3; i++) expect((await stub.take(100, HOUR, 10, t)).granted).toBe(1);
    const leased = await stub.take(100, HOUR, 10, t);
    expect(leased).toMatchObject({ allowed: true, granted: 10, remaining: 87, countedAt: t / 1000 });
    // Leases keep 50 requests in reserve: 23, 33, 43 used, then a lease of 7 reaches 50, then one at a time.
    for (let i = 0; i < 3; i++) expect((await stub.take(100, HOUR, 10, t)).granted).toBe(10);
    expect((await stub.take(100, HOUR, 10, t)).granted).toBe(7);
    expect(await stub.take(100, HOUR, 10, t)).toMatchObject({ granted: 1, remaining: 49 });
    // Giving 7 unused hits back makes them available again.
    await stub.giveBack(7, t / 1000);
    expect(await stub.take(100, HOUR, 1, t)).toMatchObject({ granted: 1, remaining: 55 });
    // A quiet key (no hit in the last 10 s) is asked for one by one again.
    expect((await stub.take(100, HOUR, 10, t + 60_000)).granted).toBe(1);
  });

  it('never lets more than the limit through, leases or not', async () => {
    const stub = limiter();
    const decisions = await Promise.all(Array.from({ length: 120 }, () => stub.take(80, HOUR, 10)));
    expect(decisions.reduce((sum, d) => sum + d.granted, 0)).toBe(80);
    expect(decisions.filter((d) => !d.allowed).every((d) => d.granted === 0)).toBe(true);
  });
});
