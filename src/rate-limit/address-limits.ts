import type { AddressCount } from '../durable-objects/address-limiter';
import type { RateLimitDecision } from '../durable-objects/rate-limiter';
import type { Bindings } from '../env';
import { fnv1a } from '../lib/fnv';
import { keptPerIsolate } from '../lib/isolate-state';

/**
 * Where a client address (a request without a credential) is counted: one of ADDRESS_SHARDS
 * AddressLimiter objects, by a hash of the address. The "address" here is the client's network key
 * (src/lib/client-network.ts: an IPv6 /64, an IPv4 address), so one client is one count. Per-address objects cost an object's creation
 * for every new shopper (measured in the bench: about 1.2 ms more CPU per request from new addresses, and
 * a Durable Object request each); shards are made once and take many addresses per call.
 */
export const ADDRESS_SHARDS = 32;
/** How long served requests are gathered before one call counts them (per shard, per isolate). */
const BATCH_MS = 50;

/** The shard of an address: a hash of it (FNV-1a spreads them evenly), the same every time. */
export function shardOf(address: string): string {
  return `addresses-${fnv1a(address) % ADDRESS_SHARDS}`;
}

const limiter = (env: Bindings, address: string) => env.ADDRESS_LIMITER.getByName(shardOf(address));

/** Counts one request that waits for the verdict: allowed and counted only if the window has room. */
export async function askAddress(env: Bindings, limit: number, windowSeconds: number, address: string): Promise<RateLimitDecision> {
  const entry: AddressCount = { address, n: 1, mode: 'asked' };
  const [decision] = await limiter(env, address).count(limit, windowSeconds, [entry]);
  return decision!;
}

/** What the limiter said of an address after counting `n` of its served requests (undefined: unreachable). */
export type Settled = (address: string, decision: RateLimitDecision | undefined, n: number) => void;

/** Served requests gathered per shard, waiting for their call: address -> requests. */
const gathering = new Map<string, Map<string, number>>();
keptPerIsolate(() => gathering.clear());

/**
 * Counts a request already answered, together with the others served in the next BATCH_MS for
 * addresses of the same shard: one Durable Object call for all of them, made in the background of
 * the request that opened the batch (`waitUntil`). The call's verdicts go to `settled`, which only
 * updates this isolate's state: no request waits on a promise another request created, which the
 * runtime does not allow.
 */
export function countServed(env: Bindings, limit: number, windowSeconds: number, address: string, waitUntil: (promise: Promise<unknown>) => void, settled: Settled): void {
  const shard = shardOf(address);
  let counts = gathering.get(shard);
  if (!counts) {
    const batch = new Map<string, number>();
    gathering.set(shard, batch);
    waitUntil(new Promise((resolve) => setTimeout(resolve, BATCH_MS)).then(() => flush(env, shard, batch, limit, windowSeconds, settled)));
    counts = batch;
  }
  counts.set(address, (counts.get(address) ?? 0) + 1);
}

async function flush(env: Bindings, shard: string, batch: Map<string, number>, limit: number, windowSeconds: number, settled: Settled) {
  if (gathering.get(shard) === batch) gathering.delete(shard);
  const entries: AddressCount[] = [...batch].map(([address, n]) => ({ address, n, mode: 'served' }));
  let decisions: (RateLimitDecision | undefined)[] = [];
  try {
    decisions = await env.ADDRESS_LIMITER.getByName(shard).count(limit, windowSeconds, entries);
  } catch (error) {
    console.error(JSON.stringify({ level: 'error', message: 'address limiter unreachable; served requests not counted', requests: entries.length, error: String(error) }));
  }
  entries.forEach((entry, i) => settled(entry.address, decisions[i], entry.n));
}
