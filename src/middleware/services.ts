import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env';
import { auditActorOf } from '../d1/audit';
import { requestDb, ride } from '../d1/request-db';
import { sendBookmark, sessionStart } from '../d1/session';

/**
 * Builds the per-request services handlers reach through `c.var` (bindings exist only per request).
 * The database is one D1 session (src/d1/session.ts: replicas for reads, the primary for writes,
 * a client's bookmark for its own writes) under the layers of src/d1/request-db.ts. This one sets
 * the audit actor: every write of a staff user, vendor user or API key is recorded in the audit
 * log, in the write's own transaction (src/d1/audit.ts); the principal is read when a write runs,
 * since authentication comes after this middleware.
 */
export function services() {
  return createMiddleware<AppEnv>(async function services(c, next) {
    const { start, constraint } = sessionStart(c);
    const session = c.env.DB.withSession(constraint);
    c.set('sessionStart', start);
    ride(c, 'auditActor', () => {
      const who = auditActorOf(c.var.principal);
      return who && { ...who, requestId: c.var.requestId, method: c.req.method, path: c.req.path };
    });
    // A session has prepare() and batch(), all that Drizzle and the layers call.
    requestDb(c, session as unknown as D1Database);
    await next();
    sendBookmark(c, session);
  });
}
