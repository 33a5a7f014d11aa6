import { eq } from 'drizzle-orm';
import { createDb, type Database } from '../db/client';
import { webhookDeliveries } from '../db/schema';
import type { Bindings } from '../env';
import { requeueRows, requeueStalled, stalledRows, type Waiting } from '../lib/requeue-stalled';
import { sendDeliveries } from './messages';

/** Deliveries still `pending` minutes after they were created or redelivered lost their message; the consumer skips one that succeeded. */
const WAITING: Waiting = { table: webhookDeliveries, id: webhookDeliveries.id, updatedAt: webhookDeliveries.updatedAt, waiting: eq(webhookDeliveries.status, 'pending') };

export function requeueStalledDeliveries(env: Pick<Bindings, 'DB' | 'DELIVERIES_QUEUE'>, now = new Date()): Promise<number> {
  return requeueStalled(createDb(env.DB), WAITING, (ids) => sendDeliveries(env, ids), now);
}

/** The same in two steps, for a consumer that finds them within a batch of its own. */
export const stalledDeliveries = {
  find: (db: Database, now = new Date()) => stalledRows(db, WAITING, now),
  requeue: (env: Pick<Bindings, 'DELIVERIES_QUEUE'>, db: Database, ids: string[], now = new Date()) => requeueRows(db, WAITING, ids, (some) => sendDeliveries(env, some), now),
};
