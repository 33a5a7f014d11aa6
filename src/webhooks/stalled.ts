import { and, asc, eq, inArray, lt } from 'drizzle-orm';
import { createDb } from '../db/client';
import { webhookDeliveries } from '../db/schema';
import type { Bindings } from '../env';
import { sendDeliveries } from './messages';

/** A pending delivery's message is consumed within seconds; one still pending after this lost its message. */
const STALLED_AFTER_MS = 2 * 60 * 1000;
const LIMIT = 100;

/**
 * Sends again the deliveries that are still `pending` minutes after they were created or
 * redelivered: their message never reached the queue (the request or consumer died between the
 * commit and the send). Run by the one-minute cron; the consumer skips a delivery that succeeded.
 */
export async function requeueStalledDeliveries(env: Pick<Bindings, 'DB' | 'DELIVERIES_QUEUE'>, now = new Date()): Promise<number> {
  const db = createDb(env.DB);
  const cutoff = new Date(now.getTime() - STALLED_AFTER_MS).toISOString();
  const stalled = await db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.status, 'pending'), lt(webhookDeliveries.updatedAt, cutoff)))
    .orderBy(asc(webhookDeliveries.updatedAt))
    .limit(LIMIT);
  if (stalled.length === 0) return 0;
  const ids = stalled.map((row) => row.id);
  // Touch them first, so the next minute's sweep does not send them again while they are queued.
  await db.update(webhookDeliveries).set({ updatedAt: now.toISOString() }).where(and(inArray(webhookDeliveries.id, ids), eq(webhookDeliveries.status, 'pending')));
  await sendDeliveries(env, ids);
  return ids.length;
}
