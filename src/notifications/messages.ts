import type { Bindings } from '../env';
import { sendAll } from '../lib/queue-send';

export type { NotificationMessage } from '../lib/queue-messages';

export async function sendNotificationMessages(env: Pick<Bindings, 'NOTIFICATIONS_QUEUE'>, ids: string[], delaySeconds?: number): Promise<void> {
  await sendAll(
    env.NOTIFICATIONS_QUEUE,
    ids.map((notificationId) => ({ notificationId })),
    delaySeconds,
  );
}
