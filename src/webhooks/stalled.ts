import { eq } from 'drizzle-orm';
import { createDb } from '../db/client';
import { webhookDeliveries } from '../db/schema';
import type { Bindings } from '../env';
import { requeueStalled } from '../lib/requeue-stalled';
import { sendDeliveries } from './messages';

/** Deliveries still `pending` minutes after they were created or redelivered lost their message; the consumer skips one that succeeded. */
export function requeueStalledDeliveries(env: Pick<Bindings, 'DB' | 'DELIVERIES_QUEUE'>, now = new Date()): Promise<number> {
  const waiting = eq(webhookDeliveries.status, 'pending');
  return requeueStalled(createDb(env.DB), { table: webhookDeliveries, id: webhookDeliveries.id, updatedAt: webhookDeliveries.updatedAt, waiting }, (ids) => sendDeliveries(env, ids), now);
}
