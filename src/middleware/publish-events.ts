import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env';
import { takeNotedEvents } from '../lib/events';
import { sendEvents } from '../lib/queue-send';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * After a write request, hands the outbox events it asked its database to insert (noted by
 * newEventId) to the `store-events` queue in the background (`waitUntil`), so webhook deliveries
 * start within a second without waiting for the cron. It sends their ids as they are, without a
 * D1 round trip: the consumer skips ids whose insert did not commit and marks the others published
 * (src/webhooks/publisher.ts). A failed send loses nothing: the events stay unpublished and are
 * sent as leftovers after 30 s, by the cron or the consumer's next batch.
 */
export function publishEvents() {
  return createMiddleware<AppEnv>(async function publishEvents(c, next) {
    await next();
    if (READS.has(c.req.method)) return;
    const own = takeNotedEvents(c.var.db);
    if (own.length === 0) return;
    c.executionCtx.waitUntil(
      sendEvents(c.env, own).catch((error: unknown) =>
        console.error(
          JSON.stringify({ level: 'error', requestId: c.var.requestId, message: 'sending outbox events failed; they are sent as leftovers later', error: String(error) }),
        ),
      ),
    );
  });
}
