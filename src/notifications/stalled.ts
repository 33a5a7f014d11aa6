import { and, eq } from 'drizzle-orm';
import { createDb } from '../db/client';
import { notifications } from '../db/schema';
import type { Bindings } from '../env';
import { requeueStalled } from '../lib/requeue-stalled';
import { sendNotificationMessages } from './messages';

/** Notifications still `queued` and never tried minutes after they were written lost their message; the consumer's lease keeps a duplicate from sending twice. */
export function requeueStalledNotifications(env: Pick<Bindings, 'DB' | 'NOTIFICATIONS_QUEUE'>, now = new Date()): Promise<number> {
  const waiting = and(eq(notifications.status, 'queued'), eq(notifications.attempts, 0))!;
  return requeueStalled(createDb(env.DB), { table: notifications, id: notifications.id, updatedAt: notifications.updatedAt, waiting }, (ids) => sendNotificationMessages(env, ids), now);
}
