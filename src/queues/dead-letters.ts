import { and, ne, sql } from 'drizzle-orm';
import { createDb } from '../db/client';
import { compiled, type Slot } from '../db/compiled';
import { inJson } from '../db/json-rows';
import { webhookDeliveries } from '../db/schema';
import type { Bindings } from '../env';
import type { DeliveryMessage } from '../webhooks/messages';
import { eachBatch, log } from './each-message';

/** Every delivery of the batch that has not succeeded, failed for good; one statement. */
const markFailed = compiled((db, p: Slot<'ids' | 'at'>) =>
  db
    .update(webhookDeliveries)
    .set({ status: 'failed', nextRetryAt: null, updatedAt: sql`${p('at')}` })
    .where(and(inJson(webhookDeliveries.id, p('ids')), ne(webhookDeliveries.status, 'succeeded')))
    .returning({ id: webhookDeliveries.id }),
);

/**
 * The `webhook-deliveries-dlq` consumer: a delivery whose retries ran out (more than 24 hours of
 * them) is recorded as failed, keeping its last error for the deliveries list; a redeliver can
 * still send it. One D1 call a batch.
 */
export async function deadLetterBatch(batch: MessageBatch<DeliveryMessage>, env: Pick<Bindings, 'DB'>): Promise<void> {
  const db = createDb(env.DB);
  await eachBatch(batch, {
    idField: 'deliveryId',
    handle: async (items) => {
      const marked = new Set((await markFailed(db, { ids: JSON.stringify(items.map((item) => item.id)), at: new Date().toISOString() })).map((row) => row.id));
      for (const { id } of items) log('warn', 'webhook delivery dead-lettered', { deliveryId: id, markedFailed: marked.has(id) });
      return new Map(items.map((item) => [item.id, 'ack']));
    },
    onError: (message, error) => {
      log('error', 'recording a dead-lettered webhook delivery failed; retrying', { deliveryId: message.body?.deliveryId, error: String(error) });
      return {};
    },
  });
}
