import { keptPerIsolate } from '../../lib/isolate-state';

/**
 * Publishable keys this isolate confirmed in the last KEPT_MS, by key hash, so a storefront's
 * requests cost no D1 round trip for the key (a kept catalogue answer then reads nothing at all).
 * A publishable key grants only what a request without a credential has, so one revoked or
 * suspended elsewhere that works on here for up to KEPT_MS reaches nothing anyone could not; a
 * revocation through this isolate forgets it at once.
 */
export const KEPT_MS = 10_000;
const MAX_KEPT = 1000;

export interface KeptPublishableKey {
  id: string;
  allowedOrigins: readonly string[];
  apiVersion: string;
  at: number;
}

const kept = new Map<string, KeptPublishableKey>();
keptPerIsolate(() => kept.clear());

export function keepPublishableKey(hash: string, key: Omit<KeptPublishableKey, 'at'>, now = Date.now()): void {
  kept.delete(hash);
  if (kept.size >= MAX_KEPT) kept.delete(kept.keys().next().value!);
  kept.set(hash, { ...key, at: now });
}

export function keptPublishableKey(hash: string, now = Date.now()): KeptPublishableKey | undefined {
  const found = kept.get(hash);
  if (found && now - found.at < KEPT_MS) return found;
  if (found) kept.delete(hash);
  return undefined;
}

/** Forgets a key revoked (or changed) through this isolate. */
export function forgetPublishableKey(id: string): void {
  for (const [hash, key] of kept) if (key.id === id) kept.delete(hash);
}
