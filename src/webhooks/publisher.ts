import { and, asc, inArray, isNull } from 'drizzle-orm';
import { createDb } from '../db/client';
import { events } from '../db/schema';
import type { Bindings } from '../env';

/** Events handed to the queue per call; the rest wait for the next write or the next minute. */
const PUBLISH_LIMIT = 100;

/**
 * Hands outbox events that are not yet published to the `store-events` queue, then marks them
 * published. It runs after every write request (so deliveries start within a second, also under
 * `wrangler dev`, where cron never fires) and every minute from the cron (so an event whose request
 * died between commit and publish is still sent). Two runs may send one event twice; the fan-out
 * creates each delivery once (unique per event and endpoint), so receivers never see a duplicate.
 */
export async function publishPendingEvents(env: Pick<Bindings, 'DB' | 'EVENTS_QUEUE'>, now = new Date()): Promise<number> {
  const db = createDb(env.DB);
  const pending = await db.select({ id: events.id }).from(events).where(isNull(events.publishedAt)).orderBy(asc(events.createdAt), asc(events.id)).limit(PUBLISH_LIMIT);
  if (pending.length === 0) return 0;
  await env.EVENTS_QUEUE.sendBatch(pending.map(({ id }) => ({ body: { eventId: id } })));
  const ids = pending.map(({ id }) => id);
  await db.update(events).set({ publishedAt: now.toISOString() }).where(and(inArray(events.id, ids), isNull(events.publishedAt)));
  return ids.length;
}
