import { sql } from 'drizzle-orm';
import { users } from '../../db/schema/identity';
import type { TokenClaims } from '../../lib/jwt';
import { credentialRider } from '../../d1/verified';
import { ConfirmedCredentials, type OptimisticCredential, samePrincipal } from './credential-cache';
import { evaluateUser, type UserCheckRow, userCheckStatement, userGuardStatement, type UserLookup } from './user-check';

/** Users this isolate confirmed lately, by id, with the token version they had (src/middleware/credentials/credential-cache.ts). */
const confirmed = new ConfirmedCredentials<UserCheckRow>();

/** Users are counted under their id, whichever of their tokens they present. */
export const userBucket = (userId: string) => `user:${userId}`;

export function rememberUser(found: Extract<UserLookup, { status: 'valid' }>, now = Date.now()) {
  confirmed.remember(found.row.id, found.principal, found.row, now);
}

/** Forgets a user whose tokens were retired through this isolate. */
export function forgetUser(userId: string) {
  confirmed.forget(userId);
}

/**
 * The `set` of a write that retires every token of the user (a password or email change,
 * disabling): their version moves on. This isolate forgets the user at once, so its next request
 * with an old token is refused before it is counted on the user's rate limit; other isolates find
 * out in that request's own check.
 */
export function retireTokens(userId: string) {
  forgetUser(userId);
  return { tokenVersion: sql`${users.tokenVersion} + 1` };
}

/** For a request with a verified user token whose user was confirmed here lately: the cached principal and the check that rides in its database. */
export function optimisticUser(claims: Pick<TokenClaims, 'sub' | 'ver'>, now = Date.now()): OptimisticCredential | undefined {
  const id = claims.sub;
  const cached = confirmed.get(id, now);
  if (!cached || cached.row.tokenVersion !== claims.ver) return undefined;
  const seen = cached.row;
  const verify = credentialRider({
    check: (d1) => userCheckStatement(d1, claims.sub),
    accept: (rows) => {
      const found = evaluateUser(rows, claims.ver);
      return found.status === 'valid' && samePrincipal(found.principal, cached.principal);
    },
    guard: (d1) => userGuardStatement(d1, seen),
    guarded: () => undefined,
  });
  return { bucket: userBucket(claims.sub), principal: cached.principal, verify, forget: () => confirmed.forget(id) };
}
