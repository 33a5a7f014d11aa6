import type { Context } from 'hono';
import type { Database } from '../db/client';
import type { AppEnv } from '../env';
import { ANONYMOUS, type Principal } from '../lib/access';
import { ApiError } from '../lib/errors';
import { type TokenClaims, verifyUserToken } from '../lib/jwt';
import { originMatcher } from '../lib/origins';
import { API_KEY_PATTERN, API_KEY_PREFIX, hashApiKey, PUBLISHABLE_KEY_PATTERN, PUBLISHABLE_KEY_PREFIX } from './credentials/api-key-format';
import { apiKeyByIdStatement, apiKeyCheckStatement, evaluateApiKey, type KeyLookup } from './credentials/api-key-check';
import { keepPublishableKey, keptPublishableKey } from './credentials/publishable-keys-kept';
import { forgetKey, keyBucket, keyPrincipal, optimisticKey, rememberKey, stampLastUse } from './credentials/api-key-cache';
import type { OptimisticCredential } from './credentials/credential-cache';
import { evaluateUser, userCheckStatement } from './credentials/user-check';
import { optimisticUser, rememberUser, userBucket } from './credentials/user-token-cache';
import { config } from '../config';

const JWT_PATTERN = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/** A user as read now, judged for a token of version `ver` (none for work recorded as the user's). */
async function checkUser(db: Database, id: string, ver?: number) {
  return evaluateUser((await userCheckStatement(db.$client, id).all()).results, ver);
}

/** The user behind a token's (or an admin-panel session's) claims, or the ApiError a request with it gets. */
async function confirmedUser(db: Database, claims: Pick<TokenClaims, 'sub' | 'ver'>) {
  const found = await checkUser(db, claims.sub, claims.ver);
  if (found.status === 'unknown') throw ApiError.unauthenticated('Invalid or expired token');
  if (found.status === 'refused') throw found.error;
  return found;
}

/** The principal of a user by id and token version (a JWT's claims, or an admin-panel session's). */
export async function lookupUser(db: Database, claims: Pick<TokenClaims, 'sub' | 'ver'>): Promise<Principal> {
  return (await confirmedUser(db, claims)).principal;
}

/** A user token's principal, remembered so that the user's next requests check it inside their own first batch. */
async function tokenPrincipal(db: Database, claims: TokenClaims): Promise<Principal> {
  const found = await confirmedUser(db, claims);
  rememberUser(found);
  return found.principal;
}

const UNKNOWN_API_KEY = 'Invalid API key';

/** The 401 a request with a key that is not valid gets. */
function keyRefusal(found: Exclude<KeyLookup, { status: 'valid' }>): ApiError {
  const why = { unknown: UNKNOWN_API_KEY, revoked: 'This API key has been revoked', expired: 'This API key has expired' };
  return ApiError.unauthenticated(found.status === 'suspended' ? `This API key is suspended: ${found.reason}` : why[found.status]);
}

async function apiKeyPrincipal(c: Context<AppEnv>, key: string): Promise<Principal> {
  const db = c.var.db;
  const hash = await hashApiKey(key);
  const { results } = await apiKeyCheckStatement(db.$client, hash).all();
  const found = evaluateApiKey(results);
  if (found.status !== 'valid') {
    forgetKey(hash);
    throw keyRefusal(found);
  }
  const principal = keyPrincipal(found);
  rememberKey(hash, principal, stampLastUse(c, found.row));
  return principal;
}

/**
 * A publishable key (`pk_...`): its request acts as a shopper without an account (the anonymous
 * principal: what it reaches is what the public reaches, and nothing a key could be granted), from
 * a web origin on the key's list (403 from another; a request with no Origin is not a browser's).
 * The principal names it, for telling its refusals apart (credentialNeeded). A key confirmed lately
 * is not read again (src/middleware/credentials/publishable-keys-kept.ts).
 */
async function publishableKeyPrincipal(c: Context<AppEnv>, key: string): Promise<Principal> {
  const hash = await hashApiKey(key);
  let confirmed = keptPublishableKey(hash);
  if (!confirmed) {
    const { results } = await apiKeyCheckStatement(c.var.db.$client, hash).all();
    const found = evaluateApiKey(results);
    if (found.status !== 'valid') throw keyRefusal(found);
    if (found.record.type !== 'publishable') throw ApiError.unauthenticated(UNKNOWN_API_KEY);
    stampLastUse(c, found.row);
    confirmed = { id: found.record.id, allowedOrigins: found.record.allowedOrigins, apiVersion: found.record.apiVersion, at: Date.now() };
    keepPublishableKey(hash, confirmed);
  }
  const origin = c.req.header('Origin');
  if (origin !== undefined && !originMatcher(confirmed.allowedOrigins)(origin)) {
    throw ApiError.forbidden(`This publishable key may not be used from ${origin}: add the origin to the key's allowedOrigins`);
  }
  return { kind: 'anonymous', publishableKey: confirmed.id, apiVersion: confirmed.apiVersion };
}

/**
 * What a recorded actor (`key:<id>` or `user:<id>`, as actorRef writes it) is now, judged as its
 * credential would be on a request: a key not revoked, expired or suspended (its owner and vendor
 * as for any request), a user active and not of a suspended vendor. Throws the ApiError such a
 * request would get. Work done later for a caller (an import's queue) checks it again with this.
 * A user's sessions are not consulted: the work goes on as long as the account could act.
 */
export async function recordedPrincipal(db: Database, actor: string): Promise<Principal> {
  const [kind, id = ''] = actor.split(':');
  if (kind === 'key') {
    const found = evaluateApiKey((await apiKeyByIdStatement(db.$client, id).all()).results);
    if (found.status !== 'valid') throw keyRefusal(found);
    return keyPrincipal(found);
  }
  const found = kind === 'user' ? await checkUser(db, id) : undefined;
  if (!found || found.status === 'unknown') throw ApiError.unauthenticated(`No user or API key is '${actor}'`);
  if (found.status === 'refused') throw found.error;
  return found.principal;
}

/** How a credential check ended: a principal, or the ApiError (401/403) to answer once the request is counted. */
export type AuthOutcome = { ok: true; principal: Principal } | { ok: false; error: ApiError };

/**
 * A credential check that has begun: `bucket` is the rate-limit counter the credential is charged
 * on once `outcome` has confirmed it (src/middleware/rate-limit.ts). `bucket` is null when the
 * request is anonymous or the credential already failed without I/O (malformed, bad signature).
 */
export interface PendingAuthentication {
  bucket: string | null;
  /**
   * For a publishable key: the name its shoppers are counted under, each network on its own
   * (src/middleware/rate-limit.ts); `bucket` is then null.
   */
  shoppers?: string;
  outcome: Promise<AuthOutcome>;
}

/** API keys are counted under a hash of the presented key, the same for every request with it. */
export async function apiKeyBucket(key: string): Promise<string> {
  return keyBucket(await hashApiKey(key));
}

const settle = (principal: Promise<Principal>): Promise<AuthOutcome> =>
  principal.then(
    (p): AuthOutcome => ({ ok: true, principal: p }),
    (error: unknown): AuthOutcome => {
      if (error instanceof ApiError) return { ok: false, error };
      throw error; // not a credential problem (D1 down, no JWT_SECRET): a 500, as before
    },
  );
const failed = (error: ApiError): PendingAuthentication => ({ bucket: null, outcome: Promise.resolve({ ok: false, error }) });

/**
 * Starts checking `Authorization: Bearer ...`: an API key (`sk_...`) or a user JWT, told apart by
 * shape. No header means anonymous. Only the I/O-free part is awaited here (hashing the key,
 * verifying the JWT's signature and expiry); `outcome` settles once D1 has confirmed the
 * credential. A header that is present but malformed, unknown,
 * expired or revoked ends as a 401, on every route, so a client never mistakes a broken credential
 * for anonymous access.
 */
export async function beginAuthentication(c: Context<AppEnv>): Promise<PendingAuthentication> {
  const header = c.req.header('Authorization');
  if (header === undefined) return { bucket: null, outcome: Promise.resolve({ ok: true, principal: ANONYMOUS }) };
  const match = /^Bearer +(\S+) *$/i.exec(header);
  if (!match) return failed(ApiError.unauthenticated('Authorization header must be of the form "Bearer <credential>"'));
  const credential = match[1]!;
  if (credential.startsWith(API_KEY_PREFIX)) {
    // A key of the wrong length or alphabet can be no key on file: answered as an unknown key, without a lookup
    // (and with no bucket of its own, so it is counted on the client IP and makes no rate-limit object).
    if (!API_KEY_PATTERN.test(credential)) return failed(ApiError.unauthenticated(UNKNOWN_API_KEY));
    return { bucket: await apiKeyBucket(credential), outcome: settle(apiKeyPrincipal(c, credential)) };
  }
  if (credential.startsWith(PUBLISHABLE_KEY_PREFIX)) {
    if (!PUBLISHABLE_KEY_PATTERN.test(credential)) return failed(ApiError.unauthenticated(UNKNOWN_API_KEY));
    return { bucket: null, shoppers: `pk:${(await hashApiKey(credential)).slice(0, 16)}`, outcome: settle(publishableKeyPrincipal(c, credential)) };
  }
  if (JWT_PATTERN.test(credential)) {
    const claims = await userClaims(c, credential);
    if (!claims) return failed(ApiError.unauthenticated('Invalid or expired token'));
    return { bucket: userBucket(claims.sub), outcome: settle(tokenPrincipal(c.var.db, claims)) };
  }
  return failed(ApiError.unauthenticated('Malformed credential: expected an API key (sk_ or pk_) or a JWT'));
}

/** A user token's claims once its signature and expiry are verified; null for a token that is not good. */
async function userClaims(c: Context<AppEnv>, token: string): Promise<TokenClaims | null> {
  const secret = config(c.env).JWT_SECRET;
  if (!secret) throw new Error('JWT_SECRET is not configured');
  return verifyUserToken(token, secret);
}

/**
 * For a request whose credential (an API key, a user token) this isolate confirmed lately: the
 * cached principal, and the check that rides in the request's first batch (src/middleware/credentials/credential-cache.ts).
 * Undefined when the credential must be looked up first (unknown here, malformed, anonymous).
 */
export async function optimisticCredential(c: Context<AppEnv>): Promise<OptimisticCredential | undefined> {
  const credential = /^Bearer +(\S+) *$/i.exec(c.req.header('Authorization') ?? '')?.[1];
  if (!credential) return undefined;
  if (API_KEY_PATTERN.test(credential)) return optimisticKey(c, credential);
  if (!JWT_PATTERN.test(credential)) return undefined;
  const claims = await userClaims(c, credential);
  return claims ? optimisticUser(claims) : undefined;
}

/** The principal behind the request's credential, or the ApiError it fails with (no rate limiting). */
export async function resolvePrincipal(c: Context<AppEnv>): Promise<Principal> {
  const outcome = await (await beginAuthentication(c)).outcome;
  if (!outcome.ok) throw outcome.error;
  return outcome.principal;
}
