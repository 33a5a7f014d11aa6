import { runDurableObjectAlarm, runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { RateLimiter } from '../../src/durable-objects/rate-limiter';

const HOUR = 3600;
const limiter = () => env.RATE_LIMITER.getByName(`object-test:${crypto.randomUUID()}`);
/** Milliseconds of a UTC wall-clock time on a fixed day. */
const at = (hhmmss: string) => Date.parse(`2026-11-23T${hhmmss}Z`);

describe('RateLimiter object', () => {
  it('lets exactly `limit` of many concurrent hits through', async () => {
    const stub = limiter();
    const decisions = await Promise.all(Array.from({ length: 60 }, () => stub.hit(25, HOUR)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(25);
    expect(decisions.filter((d) => !d.allowed)).toHaveLength(35);
    // Remaining counts down one per allowed hit, without gaps or repeats.
    const remaining = decisions.filter((d) => d.allowed).map((d) => d.remaining).sort((a, b) => b - a);
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

  it('clears its storage by alarm once a whole window passes without hits', async () => {
    const stub = limiter();
    await stub.hit(2, HOUR);
    await stub.hit(2, HOUR);
    const alarm = await runInDurableObject(stub, (_: RateLimiter, state) => state.storage.getAlarm());
    expect(alarm).toBeGreaterThan(Date.now() + (HOUR - 5) * 1000);
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const rows = await runInDurableObject(stub, (_: RateLimiter, state) => state.storage.sql.exec('SELECT count(*) AS n FROM hits').one().n);
    expect(rows).toBe(0);
    expect(await stub.hit(2, HOUR)).toMatchObject({ allowed: true, remaining: 1 });
  });
});
