import { createMiddleware } from 'hono/factory';
import { createDb } from '../db/client';
import type { AppEnv } from '../env';
import { auditActorOf, auditedD1 } from '../d1/audit';
import { sendBookmark, sessionStart } from '../d1/session';

/**
 * Builds the per-request services handlers reach through `c.var` (bindings exist only per request).
 * The database is one D1 session (src/d1/session.ts: replicas for reads, the primary
 * for writes, a client's bookmark for its own writes), and records every write of a staff user,
 * vendor user or API key in the audit log, in the write's own transaction (src/d1/audit.ts); the
 * principal is read when a write runs, since authentication comes after this middleware.
 */
export function services() {
  return createMiddleware<AppEnv>(async function services(c, next) {
    const actor = () => {
      const who = auditActorOf(c.var.principal);
      return who && { ...who, requestId: c.var.requestId, method: c.req.method, path: c.req.path };
    };
    const { start, constraint } = sessionStart(c);
    const session = c.env.DB.withSession(constraint);
    c.set('sessionStart', start);
    // A session has prepare() and batch(), all that Drizzle and the interceptors call.
    c.set('db', createDb(auditedD1(session as unknown as D1Database, actor)));
    await next();
    sendBookmark(c, session);
  });
}
