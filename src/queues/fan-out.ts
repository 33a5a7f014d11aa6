import { and, eq, inArray, lte, sql } from 'drizzle-orm';
import { createDb, type Database } from '../db/client';
import { events, webhookDeliveries, webhookEndpoints } from '../db/schema';
import type { Bindings } from '../env';
import { PING_EVENT } from '../lib/events';
import { ID_PREFIX, newId } from '../lib/ids';
import { notifyForEvent } from '../notifications/planner';
import { sendDeliveries, type EventMessage } from '../webhooks/messages';
import { leftoverEvents, markPublished, publishLeftovers } from '../webhooks/publisher';
import { eachMessage, log, type Outcome } from './each-message';

export type FanOutEnv = Pick<Bindings, 'DB' | 'DELIVERIES_QUEUE' | 'NOTIFICATIONS_QUEUE' | 'EVENTS_QUEUE'>;

const CONCURRENCY = 5;
/** D1 binds at most 100 parameters a statement; a delivery row takes 8. */
const ROWS_PER_INSERT = 12;

type EventRow = Pick<typeof events.$inferSelect, 'id' | 'type' | 'data' | 'createdAt'>;

/**
 * The `store-events` consumer: one delivery (and one message) per event and matching endpoint, then
 * the event's notifications (src/notifications/planner.ts). Both halves are idempotent, so a retry
 * of the message, or the same event sent twice, redoes neither.
 *
 * The batch's events are read, and marked published, in one D1 batch that also looks for leftovers
 * (src/webhooks/publisher.ts), which are published once the messages are done: the requests that
 * send events to this queue never touch D1 for it. An id with no event (its insert never
 * committed) is acknowledged and skipped.
 */
export async function fanOutBatch(batch: MessageBatch<EventMessage>, env: FanOutEnv): Promise<void> {
  const db = createDb(env.DB);
  const { found, leftovers } = await receiveEvents(db, batch.messages.map((message) => message.body?.eventId));
  await eachMessage(batch, CONCURRENCY, (message) => fanOut(db, env, message, found), (message, error) => {
    log('error', 'webhook fan-out failed; retrying', { queue: batch.queue, eventId: message.body?.eventId, attempts: message.attempts, error: String(error) });
    return {};
  });
  await publishLeftovers(env, db, leftovers).catch((error) =>
    log('error', 'publishing leftover outbox events failed; the next batch or the cron will retry', { error: String(error) }),
  );
}

/**
 * One round trip: marks the batch's events published (the queue holds them now: a message that
 * fails is retried by the queue, not re-sent), reads them, and reads the leftovers, which the mark
 * has just left out.
 */
async function receiveEvents(db: Database, eventIds: unknown[]): Promise<{ found: Map<string, EventRow>; leftovers: { id: string }[] }> {
  const ids = [...new Set(eventIds.filter((id): id is string => typeof id === 'string'))];
  if (ids.length === 0) return { found: new Map(), leftovers: await leftoverEvents(db) };
  const [, rows, leftovers] = await db.batch([
    markPublished(db, ids),
    db.select({ id: events.id, type: events.type, data: events.data, createdAt: events.createdAt }).from(events).where(inArray(events.id, ids)),
    leftoverEvents(db),
  ]);
  return { found: new Map(rows.map((row) => [row.id, row])), leftovers };
}

async function fanOut(db: Database, env: FanOutEnv, message: Message<EventMessage>, found: Map<string, EventRow>): Promise<Outcome> {
  const eventId = message.body?.eventId;
  if (typeof eventId !== 'string') {
    log('warn', 'store-events message without an eventId; dropped', { body: message.body });
    return 'ack';
  }
  // Not an error: requests send the ids of every event they tried to insert, committed or not.
  const event = found.get(eventId);
  if (!event) return 'ack';
  // A ping is created as a delivery by POST /api/webhooks/{id}/test; it is never broadcast.
  if (event.type === PING_EVENT) return 'ack';
  // Webhooks first: a notification problem (retried with the message) never holds back deliveries.
  await fanOutToEndpoints(db, env, event, message.attempts);
  await notifyForEvent(db, env, event, message.attempts);
  return 'ack';
}

async function fanOutToEndpoints(db: Database, env: FanOutEnv, event: { id: string; type: string; createdAt: string }, attempts: number): Promise<void> {
  const subscribed = sql`EXISTS (SELECT 1 FROM json_each(${webhookEndpoints.events}) WHERE json_each.value IN (${event.type}, '*'))`;
  // Like Stripe, an endpoint gets the events that happen after it is registered, not a backlog.
  const existedThen = lte(webhookEndpoints.createdAt, event.createdAt);
  const endpoints = await db.select({ id: webhookEndpoints.id }).from(webhookEndpoints).where(and(eq(webhookEndpoints.active, true), subscribed, existedThen));
  if (endpoints.length === 0) return;

  const now = new Date();
  const ts = now.toISOString();
  // Unique per (event, endpoint): an event published twice gets its deliveries once, and only rows
  // inserted here are sent, so a receiver never gets the same event twice from a re-publish.
  const rows = endpoints.map((endpoint) => ({ id: newId(ID_PREFIX.webhookDelivery, now.getTime()), endpointId: endpoint.id, eventId: event.id, eventType: event.type, status: 'pending' as const, attempts: 0, createdAt: ts, updatedAt: ts }));
  const inserted: { id: string }[] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    inserted.push(
      ...(await db
        .insert(webhookDeliveries)
        .values(rows.slice(i, i + ROWS_PER_INSERT))
        .onConflictDoNothing({ target: [webhookDeliveries.eventId, webhookDeliveries.endpointId] })
        .returning({ id: webhookDeliveries.id })),
    );
  }
  const ids = new Set(inserted.map((row) => row.id));
  // A retry of this message may follow an earlier run that inserted its rows and then failed to
  // send them: those rows are still pending and untried, so they are sent now.
  if (attempts > 1) {
    const untried = await db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.eventId, event.id), eq(webhookDeliveries.status, 'pending'), eq(webhookDeliveries.attempts, 0)));
    for (const row of untried) ids.add(row.id);
  }
  if (ids.size > 0) await sendDeliveries(env, [...ids]);
}
