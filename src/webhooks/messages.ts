import type { Bindings } from '../env';
import { sendAll } from '../lib/queue-send';

export type { DeliveryMessage, EventMessage } from '../lib/queue-messages';

export async function sendDeliveries(env: Pick<Bindings, 'DELIVERIES_QUEUE'>, deliveryIds: string[], delaySeconds?: number): Promise<void> {
  await sendAll(
    env.DELIVERIES_QUEUE,
    deliveryIds.map((deliveryId) => ({ deliveryId })),
    delaySeconds,
  );
}
