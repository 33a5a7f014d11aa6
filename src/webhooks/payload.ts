import type { EventRow } from '../db/schema';

/** An event as deliveries carry it and `GET /api/events` shows it (src/modules/events/events.schemas.ts). */
export function eventObject(event: Pick<EventRow, 'id' | 'type' | 'data' | 'createdAt'> & Partial<Pick<EventRow, 'position' | 'resourceId' | 'sequence'>>) {
  return {
    id: event.id,
    event: event.type,
    data: event.data,
    timestamp: isoTimestamp(event.createdAt),
    position: event.position ?? null,
    resourceId: event.resourceId ?? null,
    sequence: event.sequence ?? null,
  };
}

/**
 * The exact body of a delivery of `event`: `{"id","event","data","timestamp","position","resourceId","sequence"}`
 * in that order. It is rebuilt from the stored row on every attempt and must come out byte for byte
 * the same, because receivers dedupe and verify signatures over these bytes (the three last are
 * set by the row's insert trigger, before any delivery reads it).
 */
export function eventPayload(event: Parameters<typeof eventObject>[0]): string {
  return JSON.stringify(eventObject(event));
}

/** Rows written by the outbox are already ISO; SQLite's default `now` may not carry milliseconds or a Z. */
function isoTimestamp(value: string): string {
  const time = Date.parse(value.endsWith('Z') || /[+-]\d\d:\d\d$/.test(value) ? value : `${value}Z`);
  return Number.isNaN(time) ? value : new Date(time).toISOString();
}
