import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env';
import { ApiError } from '../lib/errors';
import { API_KEY_PATTERN } from '../modules/api-keys/api-key-format';
import { lastUsedUpdate, lookupApiKey } from '../modules/api-keys/api-keys.service';

/** Who is calling. User principals (JWT) join this union with the identity work. */
export type Principal =
  | { kind: 'anonymous' }
  | { kind: 'api_key'; id: string; role: string | null; permissions: readonly string[] };

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

const JWT_PATTERN = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/**
 * Resolves the credential in `Authorization: Bearer ...` into `c.var.principal`. No header means
 * anonymous; a header that is present but malformed, unknown, expired or revoked is 401 on every
 * route, public ones included, so a client never mistakes a broken key for anonymous access.
 */
export function authenticate() {
  return createMiddleware<AppEnv>(async function authenticate(c, next) {
    const header = c.req.header('Authorization');
    if (header === undefined) {
      c.set('principal', ANONYMOUS);
      return next();
    }
    const match = /^Bearer +(\S+) *$/i.exec(header);
    if (!match) throw ApiError.unauthenticated('Authorization header must be of the form "Bearer <credential>"');
    const credential = match[1]!;
    if (JWT_PATTERN.test(credential)) throw ApiError.unauthenticated('Invalid or expired token');
    if (!API_KEY_PATTERN.test(credential)) throw ApiError.unauthenticated('Malformed credential: expected an API key or a JWT');

    const db = c.var.db;
    const found = await lookupApiKey(db, credential);
    if (found.status !== 'valid') {
      const why = { unknown: 'Invalid API key', revoked: 'This API key has been revoked', expired: 'This API key has expired' };
      throw ApiError.unauthenticated(why[found.status]);
    }
    const { record } = found;
    c.set('principal', { kind: 'api_key', id: record.id, role: record.roleId, permissions: found.permissions });
    const touch = lastUsedUpdate(db, record);
    if (touch) c.executionCtx.waitUntil(touch.then(() => undefined, () => undefined));
    return next();
  });
}

/** Route guard: 401 without a credential, 403 when the credential lacks the permission. */
export function requirePermission(permission: string) {
  return createMiddleware<AppEnv>(async function requirePermission(c, next) {
    const principal = c.var.principal;
    if (principal.kind === 'anonymous') throw ApiError.unauthenticated('This endpoint needs a credential: Authorization: Bearer <API key>');
    if (!hasPermission(principal, permission)) throw ApiError.forbidden(`This credential lacks the '${permission}' permission`);
    return next();
  });
}
