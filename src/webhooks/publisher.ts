import { and, asc, inArray, isNull, lt, or } from 'drizzle-orm';
import { createDb } from '../db/client';
import { events } from '../db/schema';
import type { Bindings } from '../env';

/** Events handed to the queue per call; the rest wait for the next write or the next minute. */
const PUBLISH_LIMIT = 100;
/** A request publishes, besides its own events, those left unpublished this long (by a request that died, or by background work). */
export const LEFTOVER_MS = 30_000;

/**
 * Hands outbox events that are not yet published to the `store-events` queue, then marks them
 * published. It runs after every write request (so deliveries start within a second, also under
 * `wrangler dev`, where cron never fires) and every minute from the cron (so an event whose request
 * died between commit and publish is still sent). Two runs may send one event twice; the fan-out
 * creates each delivery once (unique per event and endpoint), so receivers never see a duplicate.
 */
export async function publishPendingEvents(env: Pick<Bindings, 'DB' | 'EVENTS_QUEUE'>, now = new Date(), own?: readonly string[]): Promise<number> {
  const db = createDb(env.DB);
  // With `own` (a write request): its own events and the leftovers, not the fresh events of
  // concurrent requests, which publish their own. Without (the cron): every pending event.
  const scope = own && or(own.length ? inArray(events.id, [...own]) : undefined, lt(events.createdAt, new Date(now.getTime() - LEFTOVER_MS).toISOString()));
  const pending = await db
    .select({ id: events.id })
    .from(events)
    .where(and(isNull(events.publishedAt), scope))
    .orderBy(asc(events.createdAt), asc(events.id))
    .limit(PUBLISH_LIMIT);
  if (pending.length === 0) return 0;
  await env.EVENTS_QUEUE.sendBatch(pending.map(({ id }) => ({ body: { eventId: id } })));
  const ids = pending.map(({ id }) => id);
  await db.update(events).set({ publishedAt: now.toISOString() }).where(and(inArray(events.id, ids), isNull(events.publishedAt)));
  return ids.length;
}
