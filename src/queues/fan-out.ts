import { and, eq } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { createDb, type Database } from '../db/client';
import { compiled, type Slot } from '../db/compiled';
import { inJson, jsonRows } from '../db/json-rows';
import { events, notifications, webhookDeliveries, webhookEndpoints, type NotificationRow, type WebhookDeliveryRow } from '../db/schema';
import type { NotificationTemplateRow } from '../db/schema/notifications';
import type { Bindings } from '../env';
import { PING_EVENT } from '../lib/events';
import { sendNotificationMessages } from '../notifications/messages';
import { activeTemplates, insertNotificationRows, planNotifications } from '../notifications/planner';
import { insertDeliveries, pendingDelivery } from '../webhooks/delivery-rows';
import { type EventMessage, sendDeliveries } from '../webhooks/messages';
import { leftoverEvents, markPublished, publishLeftovers } from '../webhooks/publisher';
import { stalledDeliveries } from '../webhooks/stalled';
import { stalledNotifications } from '../notifications/stalled';
import { sweepDue } from './stalled-sweep';
import { eachBatch, type Item, log, type Result, writeTogetherOrAlone } from './each-message';
import { config } from '../config';

export type FanOutEnv = Pick<Bindings, 'DB' | 'DELIVERIES_QUEUE' | 'NOTIFICATIONS_QUEUE' | 'EVENTS_QUEUE' | 'CART_RECOVERY_URL'>;

type EventRow = Pick<typeof events.$inferSelect, 'id' | 'type' | 'data' | 'createdAt'>;
type EndpointRow = Pick<typeof webhookEndpoints.$inferSelect, 'id' | 'events' | 'createdAt'>;

/**
 * The `store-events` consumer: one delivery (and one message) per event and matching endpoint, and
 * the event's notifications (src/notifications/planner.ts). Both are idempotent, so a retry of the
 * message, or the same event sent twice, creates neither again.
 *
 * Per batch, not per event: ONE D1 batch marks the batch's events published, reads them, the
 * leftovers (src/webhooks/publisher.ts: published once the messages are done, so the requests that
 * send events here never touch D1 for it), the active endpoints and the active templates; ONE D1
 * batch reads the notification contexts of every event that has templates; ONE D1 batch inserts
 * every delivery and notification. Then one queue send for the deliveries and one for the
 * notifications. An id with no event (its insert never committed) is acknowledged and skipped.
 */
export async function fanOutBatch(batch: MessageBatch<EventMessage>, env: FanOutEnv): Promise<void> {
  const db = createDb(env.DB);
  let leftovers: { id: string }[] = [];
  let stalled: Received['stalled'];
  await eachBatch(batch, {
    idField: 'eventId',
    handle: async (items) => {
      const received = await receiveEvents(
        db,
        items.map((item) => item.id),
        sweepDue(),
      );
      leftovers = received.leftovers;
      stalled = received.stalled;
      return fanOutAll(db, env, items, received);
    },
    onError: (message, error) => {
      log('error', 'webhook fan-out failed; retrying', { queue: batch.queue, eventId: message.body?.eventId, attempts: message.attempts, error: String(error) });
      return {};
    },
  });
  await publishLeftovers(env, db, leftovers).catch((error) =>
    log('error', 'publishing leftover outbox events failed; the next batch or the cron will retry', { error: String(error) }),
  );
  if (stalled) await requeueStalled(env, db, stalled);
}

/** Sends again what the sweep found (src/queues/stalled-sweep.ts); a failure waits for the next sweep or the cron. */
async function requeueStalled(env: FanOutEnv, db: Database, stalled: NonNullable<Received['stalled']>) {
  const requeued = await Promise.all([
    stalledDeliveries.requeue(
      env,
      db,
      stalled.deliveries.map((row) => row.id),
    ),
    stalledNotifications.requeue(
      env,
      db,
      stalled.notifications.map((row) => row.id),
    ),
  ]).catch((error) => log('error', 're-queueing stalled deliveries or notifications failed; the next sweep or the cron will retry', { error: String(error) }));
  if (requeued && requeued[0] + requeued[1] > 0) log('info', 're-queued stalled messages', { deliveries: requeued[0], notifications: requeued[1] });
}

interface Received {
  found: Map<string, EventRow>;
  leftovers: { id: string }[];
  endpoints: EndpointRow[];
  templates: NotificationTemplateRow[];
  /** Deliveries and notifications that lost their queue message, when this batch does the minute's sweep. */
  stalled?: { deliveries: { id: string }[]; notifications: { id: string }[] };
}

/**
 * One round trip: marks the batch's events published (the queue holds them now: a message that
 * fails is retried by the queue, not re-sent), reads them, the leftovers, which the mark has just
 * left out, and what every event of the batch is matched against: the active endpoints and the
 * active templates (a few rows; an event's type picks its own from them).
 */
const eventsIn = compiled((db, p: Slot<'ids'>) =>
  db
    .select({ id: events.id, type: events.type, data: events.data, createdAt: events.createdAt })
    .from(events)
    .where(inJson(events.id, p('ids'))),
);
const activeEndpoints = compiled((db) =>
  db.select({ id: webhookEndpoints.id, events: webhookEndpoints.events, createdAt: webhookEndpoints.createdAt }).from(webhookEndpoints).where(eq(webhookEndpoints.active, true)),
);

async function receiveEvents(db: Database, ids: string[], sweep: boolean): Promise<Received> {
  const reads = [markPublished(db, ids), eventsIn(db, { ids: JSON.stringify(ids) }), leftoverEvents(db), activeEndpoints(db, {}), activeTemplates(db, {})] as const;
  if (!sweep) {
    const [, rows, leftovers, endpoints, templates] = await db.batch(reads);
    return { found: new Map(rows.map((row) => [row.id, row])), leftovers, endpoints, templates };
  }
  const [, rows, leftovers, endpoints, templates, deliveries, notifications] = await db.batch([...reads, stalledDeliveries.find(db), stalledNotifications.find(db)]);
  return {
    found: new Map(rows.map((row) => [row.id, row])),
    leftovers,
    endpoints,
    templates,
    stalled: { deliveries: deliveries as { id: string }[], notifications: notifications as { id: string }[] },
  };
}

/** What one event writes: its deliveries and its notifications (or why they could not be planned). */
interface Part {
  item: Item<EventMessage>;
  event: EventRow;
  deliveries: WebhookDeliveryRow[];
  notifications: NotificationRow[] | { error: unknown };
}

async function fanOutAll(db: Database, env: FanOutEnv, items: Item<EventMessage>[], received: Received): Promise<Map<string, Result>> {
  const results = new Map<string, Result>();
  const toFan: { item: Item<EventMessage>; event: EventRow }[] = [];
  for (const item of items) {
    const event = received.found.get(item.id);
    // Not an error: requests send the ids of every event they tried to insert, committed or not.
    // A ping is created as a delivery by POST /api/webhooks/{id}/test; it is never broadcast.
    if (!event || event.type === PING_EVENT) results.set(item.id, 'ack');
    else toFan.push({ item, event });
  }
  if (toFan.length === 0) return results;

  const planned = await planNotifications(
    db,
    toFan.map(({ event }) => event),
    received.templates,
    new Date(),
    { cartRecoveryUrl: config(env).CART_RECOVERY_URL },
  );
  const now = new Date();
  const parts: Part[] = toFan.map(({ item, event }) => ({ item, event, deliveries: deliveryRows(event, received.endpoints, now), notifications: planned.get(event.id) ?? [] }));

  // What each event's write returned: the deliveries and queued notifications to send.
  const toSend = new Map<string, { deliveries: string[]; notifications: string[] }>();
  const unwritten = await writeTogetherOrAlone(parts, async (some) => {
    for (const [eventId, ids] of await write(db, some)) toSend.set(eventId, ids);
  });

  // Webhooks first: a notification problem (retried with the message) never holds back deliveries.
  const sendable = parts.filter((part) => !unwritten.has(part));
  const deliveryIds = sendable.flatMap((part) => toSend.get(part.event.id)?.deliveries ?? []);
  const notificationIds = sendable.flatMap((part) => toSend.get(part.event.id)?.notifications ?? []);
  const deliveriesSent =
    deliveryIds.length === 0
      ? undefined
      : await sendDeliveries(env, deliveryIds).then(
          () => undefined,
          (error: unknown) => ({ error }),
        );
  const notificationsSent =
    notificationIds.length === 0
      ? undefined
      : await sendNotificationMessages(env, notificationIds).then(
          () => undefined,
          (error: unknown) => ({ error }),
        );

  const outcome = (part: Part): Result => {
    if (unwritten.has(part)) return { error: unwritten.get(part) };
    const sent = toSend.get(part.event.id);
    if (sent?.deliveries.length && deliveriesSent) return deliveriesSent;
    if ('error' in part.notifications) return part.notifications;
    if (sent?.notifications.length && notificationsSent) return notificationsSent;
    return 'ack';
  };
  for (const part of parts) results.set(part.item.id, outcome(part));
  return results;
}

/** One pending delivery per active endpoint that wants the event and existed when it happened. */
function deliveryRows(event: EventRow, endpoints: readonly EndpointRow[], now: Date): WebhookDeliveryRow[] {
  return endpoints
    .filter((endpoint) => (endpoint.events.includes(event.type) || endpoint.events.includes('*')) && endpoint.createdAt <= event.createdAt)
    .map((endpoint) => pendingDelivery(event, endpoint.id, now));
}

// A retried message may follow an earlier run that wrote its rows and then failed to send them:
// those are still waiting and untried, so they are sent again.
const untriedDeliveries = compiled((db, p: Slot<'ids'>) =>
  db
    .select({ id: webhookDeliveries.id, eventId: webhookDeliveries.eventId })
    .from(webhookDeliveries)
    .where(and(inJson(webhookDeliveries.eventId, p('ids')), eq(webhookDeliveries.status, 'pending'), eq(webhookDeliveries.attempts, 0))),
);
const untriedNotifications = compiled((db, p: Slot<'ids'>) =>
  db
    .select({ id: notifications.id, eventId: notifications.eventId, status: notifications.status })
    .from(notifications)
    .where(and(inJson(notifications.eventId, p('ids')), eq(notifications.status, 'queued'), eq(notifications.attempts, 0))),
);

/**
 * ONE D1 batch: the parts' deliveries and notifications inserted (each at most once, see above), and
 * for retried messages their untried rows read back. Returns, by event id, what to send: the
 * deliveries and the queued notifications (a skipped one, an opt-out, is never sent).
 */
async function write(db: Database, parts: readonly Part[]): Promise<Map<string, { deliveries: string[]; notifications: string[] }>> {
  const notificationRows = parts.flatMap((part) => ('error' in part.notifications ? [] : part.notifications));
  const retried = parts.filter((part) => part.item.message.attempts > 1).map((part) => part.event.id);
  const ids = JSON.stringify(retried);
  const statements: { kind: 'deliveries' | 'notifications'; statement: unknown }[] = [
    ...jsonRows(
      webhookDeliveries,
      parts.flatMap((part) => part.deliveries),
    ).map((rows) => ({ kind: 'deliveries' as const, statement: insertDeliveries(db, { rows }) })),
    ...(notificationRows.length > 0 ? insertNotificationRows(db, notificationRows) : []).map((statement) => ({ kind: 'notifications' as const, statement })),
    ...(retried.length > 0
      ? [
          { kind: 'deliveries' as const, statement: untriedDeliveries(db, { ids }) },
          { kind: 'notifications' as const, statement: untriedNotifications(db, { ids }) },
        ]
      : []),
  ];
  const out = new Map(parts.map((part) => [part.event.id, { deliveries: new Set<string>(), notifications: new Set<string>() }]));
  if (statements.length > 0) {
    const results = (await db.batch(statements.map((s) => s.statement) as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]])) as {
      id: string;
      eventId: string | null;
      status?: string;
    }[][];
    results.forEach((rows, i) => {
      const kind = statements[i]!.kind;
      for (const row of rows) {
        const sets = row.eventId ? out.get(row.eventId) : undefined;
        if (kind === 'deliveries') sets?.deliveries.add(row.id);
        else if (row.status === 'queued') sets?.notifications.add(row.id);
      }
    });
  }
  return new Map([...out].map(([eventId, sets]) => [eventId, { deliveries: [...sets.deliveries], notifications: [...sets.notifications] }]));
}
