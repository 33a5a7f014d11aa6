import { createMiddleware } from 'hono/factory';
import { createDb } from '../db/client';
import type { AppEnv } from '../env';
import { auditActorOf, auditedD1 } from '../lib/audit';

/**
 * Builds the per-request services handlers reach through `c.var` (bindings exist only per request).
 * The database records every write of a staff user, vendor user or API key in the audit log, in
 * the write's own transaction (src/lib/audit.ts); the principal is read when a write runs, since
 * authentication comes after this middleware.
 */
export function services() {
  return createMiddleware<AppEnv>(async function services(c, next) {
    const actor = () => {
      const who = auditActorOf(c.var.principal);
      return who && { ...who, requestId: c.var.requestId, method: c.req.method, path: c.req.path };
    };
    c.set('db', createDb(auditedD1(c.env.DB, actor)));
    await next();
  });
}
