import type { Context } from 'hono';
import type { AppEnv } from '../env';
import { API_KEY_PATTERN, hashApiKey } from '../modules/api-keys/api-key-format';
import { apiKeyCheckStatement, evaluateApiKey, type KeyLookup, lastUsedUpdate } from '../modules/api-keys/api-keys.service';
import type { Principal } from './auth';
import { type VerifiedD1, verifiedD1 } from './verified-d1';

/**
 * API-key principals this isolate confirmed in the last minute, by key hash. A request with such a
 * key, of any method, runs at once on the cached principal while the key's check rides in the
 * request's first D1 batch (verifiedD1): a read costs one round trip instead of two, and so does
 * the read-only first batch of a write (the quote of `POST /api/orders`). A key revoked or changed
 * a moment ago is still refused on that very request: its check fails before any write statement
 * runs (a write waits for the check), and the request is answered again from scratch.
 */
const confirmed = new Map<string, { principal: Principal; at: number }>();
const CONFIRMED_MS = 60_000;
const CONFIRMED_MAX = 1000;

export function keyPrincipal(found: Extract<KeyLookup, { status: 'valid' }>): Principal {
  return { kind: 'api_key', id: found.record.id, role: found.record.roleId, permissions: found.permissions };
}

const same = (a: Principal, b: Principal) => JSON.stringify(a) === JSON.stringify(b);

export function rememberKey(hash: string, principal: Principal, now = Date.now()) {
  confirmed.delete(hash);
  if (confirmed.size >= CONFIRMED_MAX) confirmed.delete(confirmed.keys().next().value!);
  confirmed.set(hash, { principal, at: now });
}

export function forgetKey(hash: string) {
  confirmed.delete(hash);
}

export interface OptimisticKey {
  hash: string;
  principal: Principal;
  verify: VerifiedD1;
}

/** For a request presenting a key confirmed here lately: the cached principal and the binding that checks it on the way. */
export async function optimisticKey(c: Context<AppEnv>, now = Date.now()): Promise<OptimisticKey | undefined> {
  const credential = /^Bearer +(\S+) *$/i.exec(c.req.header('Authorization') ?? '')?.[1];
  if (!credential || !API_KEY_PATTERN.test(credential)) return undefined;
  const hash = await hashApiKey(credential);
  const cached = confirmed.get(hash);
  if (!cached || now - cached.at >= CONFIRMED_MS) return undefined;
  const d1 = c.var.db.$client;
  const verify = verifiedD1(
    d1,
    () => apiKeyCheckStatement(d1, hash),
    (rows) => {
      const found = evaluateApiKey(rows);
      if (found.status !== 'valid' || !same(keyPrincipal(found), cached.principal)) return false;
      const touch = lastUsedUpdate(c.var.db, found.record);
      if (touch) c.executionCtx.waitUntil(touch.then(() => undefined, () => undefined));
      return true;
    },
  );
  return { hash, principal: cached.principal, verify };
}
