import { describe, expect, it } from 'vitest';
import { hitFromLease, keepLease, leaseSize } from '../../src/rate-limit/leases';

const decision = (granted: number, remaining: number) => ({ allowed: true, limit: 1000, remaining, reset: 0, retryAfter: 0, granted, countedAt: 1 });

describe('rate-limit leases (one isolate)', () => {
  it('answers the leased hits locally, counting down, and gives back what it did not use', async () => {
    const bucket = `lease-test:${crypto.randomUUID()}`;
    const given: [number, number][] = [];
    const { decision: first, returning } = keepLease(bucket, 1000, decision(10, 500), async (n, at) => void given.push([n, at]));
    // The request that took the lease reports the 9 hits it keeps as still remaining.
    expect(first.remaining).toBe(509);
    const local = [1, 2, 3].map(() => hitFromLease(bucket, 1000));
    expect(local.map((d) => d?.remaining)).toEqual([508, 507, 506]);
    // Another limit (settings changed) is not served from this lease.
    expect(hitFromLease(bucket, 999)).toBeUndefined();
    await returning;
    expect(given).toEqual([[6, 1]]);
    expect(hitFromLease(bucket, 1000)).toBeUndefined();
  });

  it('keeps no lease for a single hit, and stops serving a lease when its time is up, as its unused hits go back', async () => {
    const bucket = `lease-test:${crypto.randomUUID()}`;
    expect(keepLease(bucket, 1000, decision(1, 10), async () => undefined).returning).toBeUndefined();
    expect(hitFromLease(bucket, 1000)).toBeUndefined();
    const given: number[] = [];
    const { returning } = keepLease(bucket, 1000, decision(5, 10), async (n) => void given.push(n), 20);
    expect(hitFromLease(bucket, 1000)?.remaining).toBe(13);
    await returning;
    expect(given).toEqual([3]);
    expect(hitFromLease(bucket, 1000)).toBeUndefined();
  });

  it('serves every lease a burst took, in turn, and gives back what each did not use', async () => {
    const bucket = `lease-test:${crypto.randomUUID()}`;
    const given: [number, number][] = [];
    // Two requests found no lease at the same moment and took one each (the DO counted 20 hits).
    const a = keepLease(bucket, 1000, { ...decision(10, 490), countedAt: 1 }, async (n, at) => void given.push([n, at]), 50);
    const b = keepLease(bucket, 1000, { ...decision(10, 480), countedAt: 2 }, async (n, at) => void given.push([n, at]), 50);
    expect(b.decision.remaining).toBe(489);
    const local = Array.from({ length: 12 }, () => hitFromLease(bucket, 1000));
    // 18 leased hits are left after the two requests; 12 are used here, the first lease's 9 first.
    expect(local.every(Boolean)).toBe(true);
    expect(local.map((d) => d!.remaining)).toEqual([497, 496, 495, 494, 493, 492, 491, 490, 489, 488, 487, 486]);
    await Promise.all([a.returning, b.returning]);
    expect(given).toEqual([[6, 2]]);
    expect(hitFromLease(bucket, 1000)).toBeUndefined();
  });

  it('leases 10 hits at a time, and up to 1% of a high limit (at most 100)', () => {
    expect([100, 1000, 5000, 20_000, 1_000_000].map(leaseSize)).toEqual([10, 10, 50, 100, 100]);
  });
});
