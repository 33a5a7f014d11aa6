import type { Bindings } from '../env';
import { sendAll } from '../lib/queue-send';

/** On `notifications` (and its dead-letter queue): one message to one recipient. Tiny: the consumer reads the row. */
export interface NotificationMessage {
  notificationId: string;
}

export async function sendNotificationMessages(env: Pick<Bindings, 'NOTIFICATIONS_QUEUE'>, ids: string[], delaySeconds?: number): Promise<void> {
  await sendAll(env.NOTIFICATIONS_QUEUE, ids.map((notificationId) => ({ notificationId })), delaySeconds);
}
