import type { Bindings } from '../env';
import { sendAll } from '../lib/queue-send';

/** Queue message bodies. Kept tiny: consumers read the rows, so a retried message never carries stale data. */

/** On `store-events`: one outbox event, to be fanned out to the endpoints that want it. */
export interface EventMessage {
  eventId: string;
}

/** On `webhook-deliveries` (and its dead-letter queue): one event for one endpoint. */
export interface DeliveryMessage {
  deliveryId: string;
}

export async function sendDeliveries(env: Pick<Bindings, 'DELIVERIES_QUEUE'>, deliveryIds: string[], delaySeconds?: number): Promise<void> {
  await sendAll(env.DELIVERIES_QUEUE, deliveryIds.map((deliveryId) => ({ deliveryId })), delaySeconds);
}

/** Hands outbox events to `store-events` by id (src/webhooks/publisher.ts says who sends what, and when). */
export async function sendEvents(env: Pick<Bindings, 'EVENTS_QUEUE'>, eventIds: readonly string[]): Promise<void> {
  await sendAll(env.EVENTS_QUEUE, eventIds.map((eventId) => ({ eventId })));
}
