import type { Context } from 'hono';
import type { AppEnv } from '../env';
import { API_KEY_PATTERN, hashApiKey } from '../lib/api-key-format';
import { apiKeyCheckStatement, apiKeyGuardStatement, evaluateApiKey, type KeyCheckRow, type KeyLookup, lastUsedUpdate } from '../lib/api-key-check';
import type { Principal } from '../lib/access';
import { type CredentialRider, credentialRider } from '../d1/verified';
import { keptPerIsolate } from './isolate-state';

/**
 * API-key principals this isolate confirmed in the last minute, by key hash, with the key's row as
 * read then. A request with such a key, of any method, runs at once on the cached principal while
 * the key's check rides in the request's first D1 batch (credentialRider, src/d1/verified.ts): as a read beside a read-only
 * batch, as a guard statement at the head of a batch that writes (it aborts the batch if the key
 * changed since). So a cached key costs no round trip of its own, and `POST /api/orders` with kept
 * quote inputs is one round trip in all. A key revoked or changed a moment ago is still refused on
 * that very request: nothing it wrote commits, and the request is answered again from scratch.
 */
const confirmed = new Map<string, { principal: Principal; row: KeyCheckRow; at: number }>();
keptPerIsolate(() => confirmed.clear());
const CONFIRMED_MS = 60_000;
const CONFIRMED_MAX = 1000;

export function keyPrincipal(found: Extract<KeyLookup, { status: 'valid' }>): Principal {
  const { id, roleId, vendorId, ownerId } = found.record;
  return { kind: 'api_key', id, role: roleId, permissions: found.permissions, vendorId, ownerId };
}

const same = (a: Principal, b: Principal) => JSON.stringify(a) === JSON.stringify(b);

export function rememberKey(hash: string, principal: Principal, row: KeyCheckRow, now = Date.now()) {
  confirmed.delete(hash);
  if (confirmed.size >= CONFIRMED_MAX) confirmed.delete(confirmed.keys().next().value!);
  confirmed.set(hash, { principal, row, at: now });
}

/**
 * Stamps the key's last use when it is due (once a minute at most, in the background) and returns
 * the key's row as the stamp leaves it, so the next request does not stamp it again.
 */
export function stampLastUse(c: Context<AppEnv>, row: KeyCheckRow): KeyCheckRow {
  const write = lastUsedUpdate(c.var.db, row);
  if (!write) return row;
  c.executionCtx.waitUntil(
    write.then(
      () => undefined,
      () => undefined,
    ),
  );
  return { ...row, lastUsedAt: new Date().toISOString() };
}

export function forgetKey(hash: string) {
  confirmed.delete(hash);
}

export interface OptimisticKey {
  hash: string;
  principal: Principal;
  verify: CredentialRider;
}

/** For a request presenting a key confirmed here lately: the cached principal and the check that rides in its database (src/d1/request-db.ts). */
export async function optimisticKey(c: Context<AppEnv>, now = Date.now()): Promise<OptimisticKey | undefined> {
  const credential = /^Bearer +(\S+) *$/i.exec(c.req.header('Authorization') ?? '')?.[1];
  if (!credential || !API_KEY_PATTERN.test(credential)) return undefined;
  const hash = await hashApiKey(credential);
  const cached = confirmed.get(hash);
  if (!cached || now - cached.at >= CONFIRMED_MS) return undefined;
  const verify = credentialRider({
    check: (d1) => apiKeyCheckStatement(d1, hash),
    accept: (rows) => {
      const found = evaluateApiKey(rows);
      if (found.status !== 'valid' || !same(keyPrincipal(found), cached.principal)) return false;
      stampLastUse(c, found.row);
      return true;
    },
    guard: (d1) => apiKeyGuardStatement(d1, hash, cached.row),
    // The guard passed: the key is as cached, so its last use is as cached too (kept up to date here).
    guarded: () => {
      cached.row = stampLastUse(c, cached.row);
    },
  });
  return { hash, principal: cached.principal, verify };
}
