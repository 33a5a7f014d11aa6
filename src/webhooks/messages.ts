import type { Bindings } from '../env';

/** Queue message bodies. Kept tiny: consumers read the rows, so a retried message never carries stale data. */

/** On `store-events`: one outbox event, to be fanned out to the endpoints that want it. */
export interface EventMessage {
  eventId: string;
}

/** On `webhook-deliveries` (and its dead-letter queue): one event for one endpoint. */
export interface DeliveryMessage {
  deliveryId: string;
}

/** Queues sendBatch takes at most 100 messages a call. */
const MAX_BATCH = 100;

export async function sendDeliveries(env: Pick<Bindings, 'DELIVERIES_QUEUE'>, deliveryIds: string[], delaySeconds?: number): Promise<void> {
  for (let i = 0; i < deliveryIds.length; i += MAX_BATCH) {
    const chunk = deliveryIds.slice(i, i + MAX_BATCH);
    await env.DELIVERIES_QUEUE.sendBatch(chunk.map((deliveryId) => ({ body: { deliveryId }, ...(delaySeconds ? { delaySeconds } : {}) })));
  }
}
