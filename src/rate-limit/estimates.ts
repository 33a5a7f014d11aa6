import type { RateLimitDecision } from '../durable-objects/rate-limiter';
import { LruCache } from '../lib/lru';
import { keptPerIsolate } from '../lib/isolate-state';

/**
 * Anonymous reads counted in the background. A storefront's shoppers come from many addresses, each
 * far from its hourly limit; waiting on the IP's Durable Object before every such read made an
 * anonymous first page from a new address run at about a quarter of a keyed client's rate
 * (bench/results.md). So an anonymous GET or HEAD whose address this isolate believes far from its
 * limit is answered at once, with estimated rate-limit headers, and counted in the request's
 * waitUntil, batched with the isolate's other such requests (src/rate-limit/address-limits.ts); the
 * limiter's answer updates the estimate. Once the object reports the
 * address within MARGIN of its limit (or past it), its requests wait for the object again, one by
 * one, so the edge is exact from then on.
 *
 * The bound: the limiter counts every request, so what can pass beyond the limit is only what an
 * isolate answered while the limiter's verdict was still on its way: at most MAX_PENDING requests
 * per isolate serving that address (an address at its limit through other isolates, first seen
 * here). Requests with a credential, and every write (sign-in included), always wait.
 */
export const MAX_PENDING = 4;
/** Requests wait for the object once the estimate leaves this few or fewer. */
export const MARGIN = 10;

interface Estimate {
  /** What the object last said remains (after counting the request it answered), or undefined before it has said. */
  remaining: number | undefined;
  reset: number;
  /** Requests answered here and not yet counted by the object. */
  pending: number;
}

const estimates = new LruCache<Estimate>({ maxEntries: 10_000, maxBytes: 10_000 });
keptPerIsolate(() => estimates.clear());

/** The answer for a request that need not wait, or undefined when it must (near the limit, or too many in flight). */
export function estimatedHit(bucket: string, limit: number, windowSeconds: number, nowMs = Date.now()): RateLimitDecision | undefined {
  const estimate = estimates.get(bucket) ?? { remaining: undefined, reset: Math.floor(nowMs / 1000) + windowSeconds, pending: 0 };
  const left = (estimate.remaining ?? limit) - estimate.pending - 1;
  if (estimate.pending >= MAX_PENDING || left < MARGIN) return undefined;
  estimate.pending++;
  estimates.set(bucket, estimate, 1);
  const now = Math.floor(nowMs / 1000);
  return { allowed: true, limit, remaining: left, reset: estimate.reset, retryAfter: 0, granted: 1, countedAt: now };
}

/** Records what the limiter answered for the address: a waited request's verdict, or the count of `served` requests answered from the estimate. */
export function recordDecision(bucket: string, decision: RateLimitDecision | undefined, served = 0) {
  const estimate = estimates.get(bucket) ?? { remaining: undefined, reset: 0, pending: 0 };
  estimate.pending = Math.max(0, estimate.pending - served);
  if (decision) {
    estimate.remaining = decision.remaining;
    estimate.reset = decision.reset;
  }
  estimates.set(bucket, estimate, 1);
}
