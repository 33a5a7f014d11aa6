import type { MiddlewareHandler } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env';
import { accessRefusal, type RouteAccess } from '../lib/route-access';

/**
 * The guard `apiRoute` puts before an operation's own middleware (src/lib/openapi.ts): 401/403 for a
 * caller its declared access does not allow (src/lib/route-access.ts). None where the access reads
 * no credential; the row-level reach of `credential` and `user` accesses is the handler's.
 */
export function accessGuard(declared: RouteAccess): MiddlewareHandler<AppEnv> | undefined {
  if (declared.kind === 'none' || declared.kind === 'public') return undefined;
  return createMiddleware<AppEnv>(async function accessGuard(c, next) {
    const refusal = accessRefusal(declared, c.var.principal);
    if (refusal) throw refusal;
    return next();
  });
}
