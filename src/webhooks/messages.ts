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

/** Hands outbox events to `store-events` by id (src/webhooks/publisher.ts says who sends what, and when). */
export async function sendEvents(env: Pick<Bindings, 'EVENTS_QUEUE'>, eventIds: readonly string[]): Promise<void> {
  await sendAll(
    env.EVENTS_QUEUE,
    eventIds.map((eventId) => ({ eventId })),
  );
}
