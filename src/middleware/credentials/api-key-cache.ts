import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { hashApiKey } from './api-key-format';
import { apiKeyCheckStatement, apiKeyGuardStatement, evaluateApiKey, type KeyCheckRow, type KeyLookup, lastUsedUpdate } from './api-key-check';
import type { Principal } from '../../lib/access';
import { credentialRider } from '../../d1/verified';
import { ConfirmedCredentials, type OptimisticCredential, samePrincipal } from './credential-cache';

/** API keys are counted under a hash of the presented key, the same for every request with it. */
export const keyBucket = (hash: string) => `key:${hash.slice(0, 16)}`;

/** API keys confirmed lately, by key hash (src/middleware/credentials/credential-cache.ts). */
const confirmed = new ConfirmedCredentials<KeyCheckRow>();

export function keyPrincipal(found: Extract<KeyLookup, { status: 'valid' }>): Principal {
  const { id, roleId, vendorId, ownerId, apiVersion } = found.record;
  return { kind: 'api_key', id, role: roleId, permissions: found.permissions, vendorId, ownerId, apiVersion };
}

export function rememberKey(hash: string, principal: Principal, row: KeyCheckRow, now = Date.now()) {
  confirmed.remember(hash, principal, row, now);
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
  confirmed.forget(hash);
}

/** For a request presenting a key (`sk_...`) confirmed here lately: the cached principal and the check that rides in its database (src/d1/request-db.ts). */
export async function optimisticKey(c: Context<AppEnv>, key: string, now = Date.now()): Promise<OptimisticCredential | undefined> {
  const hash = await hashApiKey(key);
  const cached = confirmed.get(hash, now);
  if (!cached) return undefined;
  const verify = credentialRider({
    check: (d1) => apiKeyCheckStatement(d1, hash),
    accept: (rows) => {
      const found = evaluateApiKey(rows);
      if (found.status !== 'valid' || !samePrincipal(keyPrincipal(found), cached.principal)) return false;
      stampLastUse(c, found.row);
      return true;
    },
    guard: (d1) => apiKeyGuardStatement(d1, hash, cached.row),
    // The guard passed: the key is as cached, so its last use is as cached too (kept up to date here).
    guarded: () => {
      cached.row = stampLastUse(c, cached.row);
    },
  });
  return { bucket: keyBucket(hash), principal: cached.principal, verify, forget: () => forgetKey(hash) };
}
