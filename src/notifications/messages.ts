import type { Bindings } from '../env';

/** On `notifications` (and its dead-letter queue): one message to one recipient. Tiny: the consumer reads the row. */
export interface NotificationMessage {
  notificationId: string;
}

/** Queues sendBatch takes at most 100 messages a call. */
const MAX_BATCH = 100;

export async function sendNotificationMessages(env: Pick<Bindings, 'NOTIFICATIONS_QUEUE'>, ids: string[], delaySeconds?: number): Promise<void> {
  for (let i = 0; i < ids.length; i += MAX_BATCH) {
    const chunk = ids.slice(i, i + MAX_BATCH);
    await env.NOTIFICATIONS_QUEUE.sendBatch(chunk.map((notificationId) => ({ body: { notificationId }, ...(delaySeconds ? { delaySeconds } : {}) })));
  }
}
