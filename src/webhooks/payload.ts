import type { EventRow } from '../db/schema';

/**
 * The exact body of a delivery of `event`: `{"id","event","data","timestamp"}` in that order. It is
 * rebuilt from the stored row on every attempt and must come out byte for byte the same, because
 * receivers dedupe and verify signatures over these bytes.
 */
export function eventPayload(event: Pick<EventRow, 'id' | 'type' | 'data' | 'createdAt'>): string {
  return JSON.stringify({ id: event.id, event: event.type, data: event.data, timestamp: isoTimestamp(event.createdAt) });
}

/** Rows written by the outbox are already ISO; SQLite's default `now` may not carry milliseconds or a Z. */
function isoTimestamp(value: string): string {
  const time = Date.parse(value.endsWith('Z') || /[+-]\d\d:\d\d$/.test(value) ? value : `${value}Z`);
  return Number.isNaN(time) ? value : new Date(time).toISOString();
}
