import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env';
import { takeNotedEvents } from '../lib/events';
import { publishPendingEvents } from '../webhooks/publisher';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * After a write request, hands the outbox events it committed to the queue in the background
 * (`waitUntil`), so webhook deliveries start within a second without waiting for the cron: its own
 * events (noted by newEventId on its database) and any left over for 30 s. A failure here loses
 * nothing: the events stay unpublished and the one-minute cron sends them.
 */
export function publishEvents() {
  return createMiddleware<AppEnv>(async function publishEvents(c, next) {
    await next();
    if (READS.has(c.req.method)) return;
    const own = takeNotedEvents(c.var.db);
    c.executionCtx.waitUntil(
      publishPendingEvents(c.env, new Date(), own).catch((error) =>
        console.error(JSON.stringify({ level: 'error', requestId: c.var.requestId, message: 'publishing outbox events failed; the cron will retry', error: String(error) })),
      ),
    );
  });
}
