import { and, asc, inArray, lt, type SQL } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Database } from '../db/client';

/** A queued row's message is consumed within seconds; one still waiting after this lost its message. */
const STALLED_AFTER_MS = 2 * 60 * 1000;
const LIMIT = 100;

/** Rows that wait for a queue message: which ones are still waiting, and when they were last touched (`updatedAt`). */
export interface Waiting {
  table: SQLiteTable;
  id: SQLiteColumn;
  updatedAt: SQLiteColumn;
  waiting: SQL;
}

/** The rows still waiting minutes after they were last touched, oldest first: a query, so a consumer can run it in a batch of its own. */
export function stalledRows(db: Database, rows: Waiting, now = new Date()) {
  const cutoff = new Date(now.getTime() - STALLED_AFTER_MS).toISOString();
  return db
    .select({ id: rows.id })
    .from(rows.table)
    .where(and(rows.waiting, lt(rows.updatedAt, cutoff)))
    .orderBy(asc(rows.updatedAt))
    .limit(LIMIT);
}

/** Sends again the messages of rows found by stalledRows, touching them first so the next sweep does not send them again while they are queued. */
export async function requeueRows(db: Database, rows: Waiting, ids: string[], send: (ids: string[]) => Promise<void>, now = new Date()): Promise<number> {
  if (ids.length === 0) return 0;
  await db
    .update(rows.table)
    .set({ updatedAt: now.toISOString() } as never) // both tables name it updatedAt (the shared timestamps)
    .where(and(inArray(rows.id, ids), rows.waiting));
  await send(ids);
  return ids.length;
}

/**
 * Sends again the messages of rows still waiting minutes after they were last touched: their
 * message never reached the queue (a request or consumer died between the write and the send).
 * Run by the one-minute cron for webhook deliveries and notifications, and by the store-events
 * consumer at most once a minute (src/queues/stalled-sweep.ts); their consumers keep a duplicate
 * from being sent twice.
 */
export async function requeueStalled(db: Database, rows: Waiting, send: (ids: string[]) => Promise<void>, now = new Date()): Promise<number> {
  const stalled = (await stalledRows(db, rows, now)) as { id: string }[];
  return requeueRows(
    db,
    rows,
    stalled.map((row) => row.id),
    send,
    now,
  );
}
