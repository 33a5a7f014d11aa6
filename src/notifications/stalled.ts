import { and, eq } from 'drizzle-orm';
import { createDb, type Database } from '../db/client';
import { notifications } from '../db/schema';
import type { Bindings } from '../env';
import { requeueRows, requeueStalled, stalledRows, type Waiting } from '../lib/requeue-stalled';
import { sendNotificationMessages } from './messages';

/** Notifications still `queued` and never tried minutes after they were written lost their message; the consumer's lease keeps a duplicate from sending twice. */
const WAITING: Waiting = {
  table: notifications,
  id: notifications.id,
  updatedAt: notifications.updatedAt,
  waiting: and(eq(notifications.status, 'queued'), eq(notifications.attempts, 0))!,
};

export function requeueStalledNotifications(env: Pick<Bindings, 'DB' | 'NOTIFICATIONS_QUEUE'>, now = new Date()): Promise<number> {
  return requeueStalled(createDb(env.DB), WAITING, (ids) => sendNotificationMessages(env, ids), now);
}

/** The same in two steps, for a consumer that finds them within a batch of its own. */
export const stalledNotifications = {
  find: (db: Database, now = new Date()) => stalledRows(db, WAITING, now),
  requeue: (env: Pick<Bindings, 'NOTIFICATIONS_QUEUE'>, db: Database, ids: string[], now = new Date()) =>
    requeueRows(db, WAITING, ids, (some) => sendNotificationMessages(env, some), now),
};
