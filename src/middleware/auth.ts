import { eq } from 'drizzle-orm';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { endTime, startTime } from 'hono/timing';
import type { Database } from '../db/client';
import { roles, users, vendors } from '../db/schema';
import type { AppEnv } from '../env';
import { ApiError } from '../lib/errors';
import { verifyUserToken } from '../lib/jwt';
import { API_KEY_PATTERN } from '../modules/api-keys/api-key-format';
import { lastUsedUpdate, lookupApiKey } from '../modules/api-keys/api-keys.service';

/** Who is calling: nobody, an API key, or a signed-in user (customer, vendor user or admin user). */
export type Principal =
  | { kind: 'anonymous' }
  | { kind: 'api_key'; id: string; role: string | null; permissions: readonly string[] }
  | { kind: 'user'; id: string; role: string; permissions: readonly string[]; vendorId: string | null };

export const ANONYMOUS: Principal = { kind: 'anonymous' };

/** A permission is `resource:action`; `resource:*` grants every action on one resource, `*` everything. */
export function hasPermission(principal: Principal, permission: string): boolean {
  if (principal.kind === 'anonymous') return false;
  const [resource] = permission.split(':');
  return principal.permissions.some((p) => p === permission || p === '*' || p === `${resource}:*`);
}

/** True when the caller may see every status of a resource (drafts included), not just the public view. */
export function isStaff(principal: Principal, resource: string): boolean {
  return hasPermission(principal, `${resource}:read`) || hasPermission(principal, `${resource}:write`);
}

/** How records name who did something: `key:<id>` or `user:<id>`; null for an anonymous caller. */
export function principalRef(principal: Principal): string | null {
  if (principal.kind === 'anonymous') return null;
  return `${principal.kind === 'api_key' ? 'key' : 'user'}:${principal.id}`;
}

/** The vendor a principal acts for, if it is a vendor user: its reach is limited to that vendor's things. */
export function vendorScope(principal: Principal): string | null {
  return principal.kind === 'user' ? principal.vendorId : null;
}

const JWT_PATTERN = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

async function userPrincipal(db: Database, token: string, secret: string | undefined): Promise<Principal> {
  if (!secret) throw new Error('JWT_SECRET is not configured');
  const claims = await verifyUserToken(token, secret);
  if (!claims) throw ApiError.unauthenticated('Invalid or expired token');
  const [found] = await db
    .select({ user: users, permissions: roles.permissions, vendorStatus: vendors.status })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .leftJoin(vendors, eq(vendors.id, users.vendorId))
    .where(eq(users.id, claims.sub))
    .limit(1);
  if (!found || found.user.tokenVersion !== claims.ver) throw ApiError.unauthenticated('Invalid or expired token');
  if (found.user.status !== 'active') throw ApiError.unauthenticated('This account is disabled');
  // A suspended vendor's users keep their accounts but can do nothing until it is reinstated.
  if (found.vendorStatus === 'suspended') throw ApiError.forbidden('The vendor of this account is suspended');
  const { user } = found;
  return { kind: 'user', id: user.id, role: user.roleId, permissions: found.permissions, vendorId: user.vendorId };
}

async function apiKeyPrincipal(c: Context<AppEnv>, key: string): Promise<Principal> {
  const db = c.var.db;
  const found = await lookupApiKey(db, key);
  if (found.status !== 'valid') {
    const why = { unknown: 'Invalid API key', revoked: 'This API key has been revoked', expired: 'This API key has expired' };
    throw ApiError.unauthenticated(why[found.status]);
  }
  const touch = lastUsedUpdate(db, found.record);
  if (touch) c.executionCtx.waitUntil(touch.then(() => undefined, () => undefined));
  return { kind: 'api_key', id: found.record.id, role: found.record.roleId, permissions: found.permissions };
}

/**
 * The principal behind `Authorization: Bearer ...`: an API key (`sk_...`) or a user JWT, told apart
 * by shape. No header means anonymous. A header that is present but malformed, unknown, expired or
 * revoked throws 401, on every route, so a client never mistakes a broken credential for anonymous
 * access.
 */
export async function resolvePrincipal(c: Context<AppEnv>): Promise<Principal> {
  const header = c.req.header('Authorization');
  if (header === undefined) return ANONYMOUS;
  const match = /^Bearer +(\S+) *$/i.exec(header);
  if (!match) throw ApiError.unauthenticated('Authorization header must be of the form "Bearer <credential>"');
  const credential = match[1]!;
  if (API_KEY_PATTERN.test(credential)) return apiKeyPrincipal(c, credential);
  if (JWT_PATTERN.test(credential)) return userPrincipal(c.var.db, credential, c.env.JWT_SECRET);
  throw ApiError.unauthenticated('Malformed credential: expected an API key or a JWT');
}

/**
 * Sets `c.var.principal`. A credential that fails leaves the caller anonymous and its 401 waiting
 * in `c.var.authError`: the rate limiter counts the request as unauthenticated first (API.md), then
 * throws it.
 */
export function authenticate() {
  return createMiddleware<AppEnv>(async function authenticate(c, next) {
    startTime(c, 'auth');
    try {
      c.set('principal', await resolvePrincipal(c));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      c.set('principal', ANONYMOUS);
      c.set('authError', error);
    } finally {
      endTime(c, 'auth');
    }
    return next();
  });
}

/** Route guard: 401 without a credential, 403 when the credential lacks the permission. */
export function requirePermission(permission: string) {
  return createMiddleware<AppEnv>(async function requirePermission(c, next) {
    const principal = c.var.principal;
    if (principal.kind === 'anonymous') throw ApiError.unauthenticated('This endpoint needs a credential: Authorization: Bearer <API key or token>');
    if (!hasPermission(principal, permission)) throw ApiError.forbidden(`This credential lacks the '${permission}' permission`);
    return next();
  });
}

/** Route guard: any signed-in user or API key. */
export function requireCredential() {
  return createMiddleware<AppEnv>(async function requireCredential(c, next) {
    if (c.var.principal.kind === 'anonymous') throw ApiError.unauthenticated('This endpoint needs a credential: Authorization: Bearer <API key or token>');
    return next();
  });
}

/** Route guard: a signed-in user (JWT); API keys act for no one and are refused with 403. */
export function requireUser() {
  return createMiddleware<AppEnv>(async function requireUser(c, next) {
    const principal = c.var.principal;
    if (principal.kind === 'anonymous') throw ApiError.unauthenticated('This endpoint needs a signed-in user: Authorization: Bearer <token from POST /api/auth/login>');
    if (principal.kind !== 'user') throw ApiError.forbidden('This endpoint is for signed-in users; an API key acts for no user');
    return next();
  });
}
