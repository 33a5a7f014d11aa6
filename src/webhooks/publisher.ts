import { and, asc, isNull, lt, sql } from 'drizzle-orm';
import { createDb, type Database } from '../db/client';
import { compiled, type Slot } from '../db/compiled';
import { inJson } from '../db/json-rows';
import { events } from '../db/schema';
import type { Bindings } from '../env';
import { sendEvents } from '../lib/queue-send';

/**
 * How outbox events reach the `store-events` queue, and so webhooks and notifications, without a
 * write request paying D1 round trips for it:
 *
 * - A write request sends the ids of the events it asked its database to insert straight to the
 *   queue once it has answered (src/middleware/publish-events.ts). It reads and writes nothing to
 *   do so: an id whose insert did not commit (a conditional `inventory.low` that did not apply, a
 *   batch the database refused) is simply not found by the consumer, which skips it.
 * - The consumer (src/queues/fan-out.ts) marks the events it receives as published, in the same D1
 *   batch in which it reads them, so publishing costs no round trip of its own there either.
 * - Leftovers: events still unpublished LEFTOVER_MS after they were created, because their request
 *   died between commit and send or its send failed. The minute cron publishes them, and so does
 *   each batch the consumer takes (at most once a batch), since cron never fires under `wrangler
 *   dev`. Neither touches fresher events, which their requests have sent and the queue still holds.
 *
 * An event may still be sent twice (a sweep overtaking a slow queue, a crash between a sweep's send
 * and its mark): the fan-out creates each delivery once (unique per event and endpoint) and each
 * notification once (its dedupe key), so no receiver sees a duplicate.
 */
export const LEFTOVER_MS = 30_000;
/** Leftovers handed to the queue per sweep; the rest wait for the next batch or the next minute. */
const PUBLISH_LIMIT = 100;

// The database's clock: the mark takes no value of its own.
const dbNow = sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`;

const markIds = compiled((db, p: Slot<'ids'>) =>
  db
    .update(events)
    .set({ publishedAt: dbNow })
    .where(and(inJson(events.id, p('ids')), isNull(events.publishedAt))),
);

/** Marks events as handed to the queue (the ids are one JSON parameter: any number of them). */
export function markPublished(db: Database, ids: readonly string[]) {
  return markIds(db, { ids: JSON.stringify(ids) });
}

const leftoversBefore = compiled((db, p: Slot<'before'>) =>
  db
    .select({ id: events.id })
    .from(events)
    .where(and(isNull(events.publishedAt), lt(events.createdAt, sql`${p('before')}`)))
    .orderBy(asc(events.createdAt), asc(events.id))
    .limit(PUBLISH_LIMIT),
);

/** The leftovers at `now`, oldest first: a query, so that a consumer can run it in a batch of its own. */
export function leftoverEvents(db: Database, now = new Date()) {
  return leftoversBefore(db, { before: new Date(now.getTime() - LEFTOVER_MS).toISOString() });
}

/** Sends leftovers found by leftoverEvents, then marks them published (a crash in between sends them again, never loses them). */
export async function publishLeftovers(env: Pick<Bindings, 'EVENTS_QUEUE'>, db: Database, leftovers: readonly { id: string }[]): Promise<number> {
  if (leftovers.length === 0) return 0;
  const ids = leftovers.map(({ id }) => id);
  await sendEvents(env, ids);
  await markPublished(db, ids);
  return ids.length;
}

/** The minute cron's sweep: the leftovers published. */
export async function publishLeftoverEvents(env: Pick<Bindings, 'DB' | 'EVENTS_QUEUE'>, now = new Date()): Promise<number> {
  const db = createDb(env.DB);
  return publishLeftovers(env, db, await leftoverEvents(db, now));
}
