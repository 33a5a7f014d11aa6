import { and, asc, eq, inArray, lt } from 'drizzle-orm';
import { createDb } from '../db/client';
import { notifications } from '../db/schema';
import type { Bindings } from '../env';
import { sendNotificationMessages } from './messages';

/** A queued notification's message is consumed within seconds; one still untried after this lost its message. */
const STALLED_AFTER_MS = 2 * 60 * 1000;
const LIMIT = 100;

/**
 * Sends again the notifications still `queued` and never tried minutes after they were written: their
 * message never reached the queue (a request or consumer died between the write and the send).
 * Run by the one-minute cron; the consumer's lease keeps a duplicate from sending twice.
 */
export async function requeueStalledNotifications(env: Pick<Bindings, 'DB' | 'NOTIFICATIONS_QUEUE'>, now = new Date()): Promise<number> {
  const db = createDb(env.DB);
  const cutoff = new Date(now.getTime() - STALLED_AFTER_MS).toISOString();
  const stalled = await db
    .select({ id: notifications.id })
    .from(notifications)
    .where(and(eq(notifications.status, 'queued'), eq(notifications.attempts, 0), lt(notifications.updatedAt, cutoff)))
    .orderBy(asc(notifications.updatedAt))
    .limit(LIMIT);
  if (stalled.length === 0) return 0;
  const ids = stalled.map((row) => row.id);
  // Touch them first, so the next minute's sweep does not send them again while they are queued.
  await db.update(notifications).set({ updatedAt: now.toISOString() }).where(and(inArray(notifications.id, ids), eq(notifications.status, 'queued')));
  await sendNotificationMessages(env, ids);
  return ids.length;
}
