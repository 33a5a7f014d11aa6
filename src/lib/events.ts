import type { SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import { compiledInsert } from '../db/compiled';
import { events } from '../db/schema';
import { ID_PREFIX, newId } from './ids';
import type { EventData, EventType } from './event-types';
import { insertWhere } from './insert-where';

export { type EventData, type EventType, PING_EVENT } from './event-types';

/** Columns the insert's trigger fills in (migrations/0061_events_api.sql): where the event stands, what it is about, its number for that. */
const SET_BY_TRIGGER = { position: null, resourceId: null, sequence: null };

/**
 * The outbox insert for one domain event. It returns the statement rather than running it: the
 * caller puts it in the same `db.batch([...])` as the change that causes the event, so both commit
 * together or not at all. `data` is type-checked against the kind's schema (its module's `<name>.events.ts`)
 * and not parsed: writes stay fast, and test/webhooks/event-payloads.test.ts checks what is stored.
 */
export function outboxEvent<T extends EventType>(db: Database, type: T, data: EventData<T>, now = new Date()) {
  return insertEvent(db, { id: newEventId(db, now), type, data, createdAt: now.toISOString(), publishedAt: null, ...SET_BY_TRIGGER });
}
/** Built once per isolate (src/db/compiled.ts): every write request with an event runs it. */
const insertEvent = compiledInsert(events);

/** outboxEvent for a change that may not happen: the event is inserted only when `condition` holds in the same batch. */
export function outboxEventWhere<T extends EventType>(db: Database, type: T, data: EventData<T>, condition: SQL, now = new Date()) {
  return insertWhere(db, events, { id: newEventId(db, now), type, data, createdAt: now.toISOString(), publishedAt: null, ...SET_BY_TRIGGER }, condition);
}

/**
 * The events each request's database has been asked to insert (whether or not they committed), so
 * the request sends its own events to the queue afterwards (src/middleware/publish-events.ts)
 * without reading them back from D1, and never the fresh events of other requests (publishing
 * every pending event from every write request made each of N concurrent writes send the others'
 * events again, N times the fan-out work). Ids that never committed are skipped by the consumer.
 */
const noted = new WeakMap<object, string[]>();

/** A new event id, noted as one of `db`'s requests' events. Every insert into events takes its id here. */
export function newEventId(db: Database, now = new Date()): string {
  return noteEventId(db, newId(ID_PREFIX.event, now.getTime()));
}

/**
 * Notes an event id known in advance as one of `db`'s requests' events: for an event a trigger may
 * insert with an id derived from its row's (`inventory.low`, src/modules/inventory/stock.ts).
 */
export function noteEventId(db: Database, id: string): string {
  const ids = noted.get(db) ?? [];
  ids.push(id);
  noted.set(db, ids);
  return id;
}

/** The event ids noted on `db` so far, forgotten once taken. */
export function takeNotedEvents(db: Database): string[] {
  const ids = noted.get(db) ?? [];
  noted.delete(db);
  return ids;
}
