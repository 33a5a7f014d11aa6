import type { AddressCount } from '../durable-objects/address-limiter';
import type { RateLimitDecision } from '../durable-objects/rate-limiter';
import type { Bindings } from '../env';

/**
 * Where a client address (a request without a credential) is counted: one of ADDRESS_SHARDS
 * AddressLimiter objects, by a hash of the address. Per-address objects cost an object's creation
 * for every new shopper (measured in the bench: 0.9 ms of CPU per request from new addresses, and
 * a Durable Object request each); shards are made once and take many addresses per call.
 */
export const ADDRESS_SHARDS = 32;
/** How long served requests are gathered before one call counts them (per shard, per isolate). */
const BATCH_MS = 50;

/** FNV-1a (32 bits) of the address, so shards fill evenly. */
export function shardOf(address: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < address.length; i++) {
    hash ^= address.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return `addresses-${(hash >>> 0) % ADDRESS_SHARDS}`;
}

const limiter = (env: Bindings, address: string) => env.ADDRESS_LIMITER.getByName(shardOf(address));

/** Counts one request that waits for the verdict: allowed and counted only if the window has room. */
export async function askAddress(env: Bindings, limit: number, windowSeconds: number, address: string): Promise<RateLimitDecision> {
  const entry: AddressCount = { address, n: 1, mode: 'asked' };
  const [decision] = await limiter(env, address).count(limit, windowSeconds, [entry]);
  return decision!;
}

interface Batch {
  counts: Map<string, number>;
  verdicts: Promise<Map<string, RateLimitDecision>>;
}
const gathering = new Map<string, Batch>();

/**
 * Counts a request already answered, together with the others served in the next BATCH_MS for
 * addresses of the same shard: one Durable Object call for all of them. Resolves with the
 * address's count after it (undefined if the object could not be reached: logged, fail open).
 */
export function countServed(env: Bindings, limit: number, windowSeconds: number, address: string): Promise<RateLimitDecision | undefined> {
  const shard = shardOf(address);
  let batch = gathering.get(shard);
  if (!batch) {
    const counts = new Map<string, number>();
    const verdicts = new Promise((resolve) => setTimeout(resolve, BATCH_MS)).then(async () => {
      gathering.delete(shard);
      const entries: AddressCount[] = [...counts].map(([a, n]) => ({ address: a, n, mode: 'served' }));
      try {
        const decisions = await limiter(env, address).count(limit, windowSeconds, entries);
        return new Map(entries.map((e, i) => [e.address, decisions[i]!]));
      } catch (error) {
        console.error(JSON.stringify({ level: 'error', message: 'address limiter unreachable; served requests not counted', requests: entries.length, error: String(error) }));
        return new Map<string, RateLimitDecision>();
      }
    });
    batch = { counts, verdicts };
    gathering.set(shard, batch);
  }
  batch.counts.set(address, (batch.counts.get(address) ?? 0) + 1);
  return batch.verdicts.then((verdicts) => verdicts.get(address));
}
