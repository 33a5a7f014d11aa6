import { config } from '../config';
import type { Bindings } from '../env';
import type { NotificationMessage } from '../notifications/messages';
import type { DeliveryMessage, EventMessage } from '../webhooks/messages';
import { deadLetterBatch } from './dead-letters';
import { deliverBatch } from './deliver';
import { log } from './each-message';
import { fanOutBatch } from './fan-out';
import { notificationDeadLetterBatch, sendNotificationBatch } from './notifications';
import { importBatch } from './imports';
import { replayBatch } from './replays';
import type { ReplayMessage } from '../lib/queue-messages';
import type { ImportMessage } from '../modules/imports';

/** The Worker's queue handler: each queue of wrangler.toml to its consumer. */
export async function handleQueue(batch: MessageBatch<unknown>, env: Bindings, _ctx: ExecutionContext): Promise<void> {
  config(env); // an invalid variable fails the batch (retried), naming it, before any message is handled
  switch (batch.queue) {
    case 'store-events':
      return fanOutBatch(batch as MessageBatch<EventMessage>, env);
    case 'webhook-deliveries':
      return deliverBatch(batch as MessageBatch<DeliveryMessage>, env);
    case 'webhook-deliveries-dlq':
      return deadLetterBatch(batch as MessageBatch<DeliveryMessage>, env);
    case 'notifications':
      return sendNotificationBatch(batch as MessageBatch<NotificationMessage>, env);
    case 'notifications-dlq':
      return notificationDeadLetterBatch(batch as MessageBatch<NotificationMessage>, env);
    case 'product-imports':
      return importBatch(batch as MessageBatch<ImportMessage>, env);
    case 'webhook-replays':
      return replayBatch(batch as MessageBatch<ReplayMessage>, env);
    default:
      // A queue bound without a consumer here: keep its messages (the queue's own retries and
      // dead-lettering apply) rather than drop them silently.
      log('error', 'message batch from a queue this Worker does not consume; retrying', { queue: batch.queue, messages: batch.messages.length });
      batch.retryAll();
  }
}
