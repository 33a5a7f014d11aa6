import { and, asc, count, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { events, type WebhookDeliveryRow, type WebhookEndpointRow, webhookAttempts, webhookDeliveries } from '../../db/schema';
import type { Bindings } from '../../env';
import { ApiError } from '../../lib/errors';
import { PING_EVENT } from '../../lib/events';
import { ID_PREFIX, newId } from '../../lib/ids';
import { listPlan, type ParsedListQuery } from '../../lib/query';
import { sendDeliveries } from '../../webhooks/messages';
import { eventPayload } from '../../webhooks/payload';
import type { Delivery, DeliveryDetail } from './deliveries.schemas';
import { deliveryListQuery } from './deliveries.query';
import { getEndpointRow } from './webhooks.service';

type Queues = Pick<Bindings, 'DELIVERIES_QUEUE'>;

export function toDelivery(row: WebhookDeliveryRow): Delivery {
  const { endpointId: _endpoint, eventType, updatedAt: _updated, ...rest } = row;
  return { ...rest, event: eventType };
}

const ofEndpoint = (endpointId: string, deliveryId: string) => and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpointId));

export async function listDeliveries(db: Database, endpointId: string, query: ParsedListQuery<typeof deliveryListQuery.filters>) {
  await getEndpointRow(db, endpointId);
  const plan = listPlan(deliveryListQuery, query, [eq(webhookDeliveries.endpointId, endpointId)]);
  const [rows, totals] = await db.batch([
    db
      .select()
      .from(webhookDeliveries)
      .where(plan.where)
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    db.select({ total: count() }).from(webhookDeliveries).where(plan.matching),
  ]);
  return { items: rows.map(toDelivery), total: totals[0]!.total };
}

export async function getDelivery(db: Database, endpointId: string, deliveryId: string): Promise<DeliveryDetail> {
  // No joins: D1 batches map result columns by name, and these tables share `id` and `created_at`.
  const owned = db.select({ id: webhookDeliveries.id }).from(webhookDeliveries).where(ofEndpoint(endpointId, deliveryId));
  const [[delivery], [event], attempts] = await db.batch([
    db.select().from(webhookDeliveries).where(ofEndpoint(endpointId, deliveryId)),
    db
      .select()
      .from(events)
      .where(inArray(events.id, db.select({ id: webhookDeliveries.eventId }).from(webhookDeliveries).where(ofEndpoint(endpointId, deliveryId)))),
    db.select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, owned)).orderBy(asc(webhookAttempts.attempt), asc(webhookAttempts.id)),
  ]);
  if (!delivery) throw ApiError.notFound('Webhook delivery', deliveryId);
  return {
    ...toDelivery(delivery),
    attemptHistory: attempts.map(({ id: _id, deliveryId: _delivery, ...attempt }) => attempt),
    // Parsed from the very bytes the consumer sends, so what is shown is what receivers get.
    payload: event ? (JSON.parse(eventPayload(event)) as DeliveryDetail['payload']) : null,
  };
}

/** Redelivery, replays and test pings go only to an endpoint that is switched on. */
export function assertReceiving(endpoint: WebhookEndpointRow, action: string): void {
  if (endpoint.disabledAt) {
    throw ApiError.conflict(
      `Webhook endpoint ${endpoint.id} was disabled (${endpoint.disabledReason ?? 'failing'}); re-enable it with PATCH { "active": true } before you ${action}`,
    );
  }
  if (!endpoint.active) throw ApiError.conflict(`Webhook endpoint ${endpoint.id} is inactive; activate it with PATCH { "active": true } before you ${action}`);
}

/**
 * Queues the delivery once more, whatever its status. Its id stays the same, so a receiver that
 * already processed it can recognise the repeat by `X-Store-Delivery`.
 */
export async function redeliver(db: Database, queues: Queues, endpointId: string, deliveryId: string, now = new Date()): Promise<Delivery> {
  assertReceiving(await getEndpointRow(db, endpointId), 'redeliver');
  const [row] = await db
    .update(webhookDeliveries)
    .set({ status: 'pending', nextRetryAt: null, replayId: null, updatedAt: now.toISOString() })
    .where(ofEndpoint(endpointId, deliveryId))
    .returning();
  if (!row) throw ApiError.notFound('Webhook delivery', deliveryId);
  await sendDeliveries(queues, [row.id]);
  return toDelivery(row);
}

export const PING_MESSAGE = 'Test delivery from the store';

/** A `ping` event and its one delivery, to this endpoint only, then queued. */
export async function sendTestPing(db: Database, queues: Queues, endpointId: string, now = new Date()): Promise<Delivery> {
  assertReceiving(await getEndpointRow(db, endpointId), 'send a test');
  const ts = now.toISOString();
  const eventId = newId(ID_PREFIX.event, now.getTime());
  const [, [delivery]] = await db.batch([
    // Written as already published: the publisher sends only events whose publishedAt is null to the
    // fan-out, which would deliver this ping to every endpoint subscribed to `*`. The ping is for
    // this endpoint alone, so its one delivery is created here and queued directly.
    db.insert(events).values({ id: eventId, type: PING_EVENT, data: { webhookId: endpointId, message: PING_MESSAGE }, createdAt: ts, publishedAt: ts }),
    db
      .insert(webhookDeliveries)
      .values({ id: newId(ID_PREFIX.webhookDelivery, now.getTime()), endpointId, eventId, eventType: PING_EVENT, status: 'pending', createdAt: ts, updatedAt: ts })
      .returning(),
  ]);
  await sendDeliveries(queues, [delivery!.id]);
  return toDelivery(delivery!);
}
