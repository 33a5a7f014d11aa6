import type { SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import { events } from '../db/schema';
import { ID_PREFIX, newId } from './ids';
import { insertWhere } from './insert-where';

/**
 * Domain event kinds written to the outbox. The spec's eight kinds, plus `product.deleted` so a
 * subscriber mirroring the catalogue learns of removals, and `shipment.shipped` (with its carrier
 * and tracking) for shipping notifications. Content pages emit `page.published`, `page.updated` (a
 * published page changed) and `page.unpublished` (back to draft, or deleted), so storefront caches can follow.
 */
export const EVENT_TYPES = [
  'order.placed',
  'order.updated',
  'order.cancelled',
  'product.created',
  'product.updated',
  'product.deleted',
  'customer.registered',
  'payment.completed',
  'shipment.shipped',
  'inventory.low',
  'page.published',
  'page.updated',
  'page.unpublished',
] as const;

/** `ping`: the test event `POST /api/webhooks/{id}/test` sends to one endpoint; never broadcast. */
export const PING_EVENT = 'ping';
export type EventType = (typeof EVENT_TYPES)[number];

/**
 * The outbox insert for one domain event. It returns the statement rather than running it: the
 * caller puts it in the same `db.batch([...])` as the change that causes the event, so both commit
 * together or not at all.
 */
export function outboxEvent(db: Database, type: EventType, data: Record<string, unknown>, now = new Date()) {
  return db.insert(events).values({ id: newId(ID_PREFIX.event, now.getTime()), type, data, createdAt: now.toISOString() });
}

/** outboxEvent for a change that may not happen: the event is inserted only when `condition` holds in the same batch. */
export function outboxEventWhere(db: Database, type: EventType, data: Record<string, unknown>, condition: SQL, now = new Date()) {
  return insertWhere(db, events, { id: newId(ID_PREFIX.event, now.getTime()), type, data, createdAt: now.toISOString(), publishedAt: null }, condition);
}
