import { and, asc, eq, gt, gte, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Database } from '../db/client';
import { compiled, type Slot } from '../db/compiled';
import { inJson, jsonRows } from '../db/json-rows';
import { events, type WebhookReplayRow, webhookDeliveries, webhookEndpoints, webhookReplays } from '../db/schema';
import type { Bindings } from '../env';
import { sendAll } from '../lib/queue-send';
import { insertDeliveries, pendingDelivery } from './delivery-rows';
import { sendDeliveries } from './messages';

/**
 * A replay sends one endpoint the past events of a window again (POST /api/webhooks/{id}/replay),
 * a page at a time through the `webhook-replays` queue: each message takes the events after the
 * replay's cursor, oldest first, and in ONE D1 batch creates the deliveries missing for this
 * endpoint (marked with the replay), re-queues those that failed for good, and moves the cursor and
 * the counts, guarded by the cursor it read, so a repeated message never counts twice. An event
 * delivered, pending or still retrying is skipped: a replay never sends what is already on its way.
 * Then it sends the deliveries, and the next page's message; a crash in between leaves deliveries
 * pending, which the stalled sweep sends (src/webhooks/stalled.ts).
 */
export const REPLAY_PAGE = 100;

export type ReplayEnv = Pick<Bindings, 'DB' | 'DELIVERIES_QUEUE' | 'REPLAYS_QUEUE'>;

export function sendReplayPage(env: Pick<Bindings, 'REPLAYS_QUEUE'>, replayId: string): Promise<void> {
  return sendAll(env.REPLAYS_QUEUE, [{ replayId }]);
}

/** `createdAt id` of the last event taken: events sort by both, and ISO timestamps hold no space. */
const cursorOf = (event: { createdAt: string; id: string }) => `${event.createdAt} ${event.id}`;

const readReplay = compiled((db, p: Slot<'id'>) =>
  db
    .select({ replay: webhookReplays, endpointActive: webhookEndpoints.active })
    .from(webhookReplays)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookReplays.endpointId))
    .where(eq(webhookReplays.id, p('id'))),
);

function pageOf(db: Database, replay: WebhookReplayRow) {
  const [afterAt, afterId] = replay.cursor ? (replay.cursor.split(' ') as [string, string]) : [null, null];
  const after = afterAt ? or(gt(events.createdAt, afterAt), and(eq(events.createdAt, afterAt), gt(events.id, afterId!))) : undefined;
  return db
    .select({ id: events.id, type: events.type, createdAt: events.createdAt })
    .from(events)
    .where(and(gte(events.createdAt, replay.from), lt(events.createdAt, replay.to), inJson(events.type, JSON.stringify(replay.eventTypes)), after))
    .orderBy(asc(events.createdAt), asc(events.id))
    .limit(REPLAY_PAGE);
}

/** Works the next page of a replay; true when another page follows (its message is sent). */
export async function replayPage(db: Database, env: ReplayEnv, replayId: string, now = new Date()): Promise<boolean> {
  const [found] = await readReplay(db, { id: replayId });
  // Gone with its endpoint, or finished (a repeated message): nothing to do.
  if (!found || found.replay.status === 'completed' || found.replay.status === 'failed') return false;
  const { replay } = found;
  if (!found.endpointActive) {
    await failReplay(db, replayId, 'the endpoint was switched off during the replay', now);
    return false;
  }
  const page = await pageOf(db, replay);
  const existing = page.length
    ? await db
        .select({ eventId: webhookDeliveries.eventId, status: webhookDeliveries.status })
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.endpointId, replay.endpointId), inJson(webhookDeliveries.eventId, JSON.stringify(page.map((e) => e.id)))))
    : [];
  const statusOf = new Map(existing.map((row) => [row.eventId, row.status]));
  const fresh = page.filter((event) => !statusOf.has(event.id)).map((event) => pendingDelivery(event, replay.endpointId, now, replayId));
  const failed = page.filter((event) => statusOf.get(event.id) === 'failed').map((event) => event.id);

  const ts = now.toISOString();
  const last = page.at(-1);
  const done = page.length < REPLAY_PAGE;
  // Counted in SQL after this batch's own writes (one transaction): what this page created or re-queued.
  const queuedNow = sql`(SELECT count(*) FROM ${webhookDeliveries} WHERE ${webhookDeliveries.endpointId} = ${replay.endpointId} AND ${webhookDeliveries.replayId} = ${replayId} AND ${webhookDeliveries.updatedAt} = ${ts})`;
  const writes = [
    ...jsonRows(webhookDeliveries, fresh).map((rows) => insertDeliveries(db, { rows })),
    db
      .update(webhookDeliveries)
      .set({ status: 'pending', nextRetryAt: null, replayId, updatedAt: ts })
      .where(and(eq(webhookDeliveries.endpointId, replay.endpointId), inJson(webhookDeliveries.eventId, JSON.stringify(failed)), eq(webhookDeliveries.status, 'failed')))
      .returning({ id: webhookDeliveries.id }),
  ];
  // Last in the batch, so its counts see the writes before it; applied only from the cursor it was read at.
  const advance = db
    .update(webhookReplays)
    .set({
      status: done ? 'completed' : 'running',
      cursor: last ? cursorOf(last) : replay.cursor,
      matched: sql`${webhookReplays.matched} + ${page.length}`,
      queued: sql`${webhookReplays.queued} + ${queuedNow}`,
      skipped: sql`${webhookReplays.skipped} + ${page.length} - ${queuedNow}`,
      finishedAt: done ? ts : null,
      updatedAt: ts,
    })
    .where(and(eq(webhookReplays.id, replayId), replay.cursor === null ? isNull(webhookReplays.cursor) : eq(webhookReplays.cursor, replay.cursor)))
    .returning({ id: webhookReplays.id });
  const results = (await db.batch([...writes, advance] as unknown as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]])) as { id: string }[][];
  const advanced = results.at(-1)!.length > 0;
  await sendDeliveries(
    env,
    results.slice(0, -1).flatMap((rows) => rows.map((row) => row.id)),
  );
  // Another run took this page first (a repeated message): the page after is its to send.
  if (!advanced || done) return false;
  await sendReplayPage(env, replayId);
  return true;
}

/** Ends a replay that has not finished as failed, with why. */
export async function failReplay(db: Database, replayId: string, error: string, now = new Date()): Promise<void> {
  const ts = now.toISOString();
  await db
    .update(webhookReplays)
    .set({ status: 'failed', error, finishedAt: ts, updatedAt: ts })
    .where(and(eq(webhookReplays.id, replayId), inArray(webhookReplays.status, ['queued', 'running'])));
}
