import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { RateLimiter } from '../../src/durable-objects/rate-limiter';
import { apiKeyBucket } from '../../src/middleware/auth';
import { adminKey, api } from '../helpers';

// In this project the limits are far away (1,000,000), so a busy key gets leases.
const counted = (key: string) =>
  apiKeyBucket(key).then((bucket) =>
    runInDurableObject(env.RATE_LIMITER.getByName(bucket), (_: RateLimiter, state) => state.storage.sql.exec('SELECT coalesce(sum(count), 0) AS n FROM hits').one().n as number),
  );

describe('rate-limit leases through the API', () => {
  it('serves a busy key from leases, counts down one per request, and ends counting each request once', async () => {
    const key = await adminKey();
    const remaining: number[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await api('/api/categories?limit=1', { key });
      expect(res.status).toBe(200);
      remaining.push(Number(res.headers.get('X-RateLimit-Remaining')));
    }
    expect(remaining.slice(1).map((r, i) => remaining[i]! - r)).toEqual(Array(39).fill(1));
    // Hits are counted ahead while a lease is open, and what it did not use comes back after LEASE_MS.
    expect(await counted(key)).toBeGreaterThan(40);
    await new Promise((resolve) => setTimeout(resolve, Number(env.RATE_LIMIT_LEASE_SECONDS) * 1000 + 300));
    expect(await counted(key)).toBe(40);
  });
});
