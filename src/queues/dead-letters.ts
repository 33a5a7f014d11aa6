import { and, eq, ne } from 'drizzle-orm';
import { createDb } from '../db/client';
import { webhookDeliveries } from '../db/schema';
import type { Bindings } from '../env';
import type { DeliveryMessage } from '../webhooks/messages';
import { eachMessage, log } from './each-message';

/**
 * The `webhook-deliveries-dlq` consumer: a delivery whose retries ran out (more than 24 hours of
 * them) is recorded as failed, keeping its last error for the deliveries list; a redeliver can
 * still send it.
 */
export async function deadLetterBatch(batch: MessageBatch<DeliveryMessage>, env: Pick<Bindings, 'DB'>): Promise<void> {
  const db = createDb(env.DB);
  await eachMessage(
    batch,
    batch.messages.length,
    async (message) => {
      const deliveryId = message.body?.deliveryId;
      if (typeof deliveryId !== 'string') {
        log('warn', 'dead-lettered message without a deliveryId; dropped', { body: message.body });
        return 'ack';
      }
      const updated = await db
        .update(webhookDeliveries)
        .set({ status: 'failed', nextRetryAt: null, updatedAt: new Date().toISOString() })
        .where(and(eq(webhookDeliveries.id, deliveryId), ne(webhookDeliveries.status, 'succeeded')));
      log('warn', 'webhook delivery dead-lettered', { deliveryId, markedFailed: updated.meta.changes > 0 });
      return 'ack';
    },
    (message, error) => {
      log('error', 'recording a dead-lettered webhook delivery failed; retrying', { deliveryId: message.body?.deliveryId, error: String(error) });
      return {};
    },
  );
}
