import type { Bindings } from '../env';

/** Queues `sendBatch` takes at most 100 messages a call. */
const MAX_BATCH = 100;

/** Sends one message per body, in as many `sendBatch` calls of at most 100 as it takes. */
export async function sendAll<Body>(queue: Queue<Body>, bodies: readonly Body[], delaySeconds?: number): Promise<void> {
  for (let i = 0; i < bodies.length; i += MAX_BATCH) {
    await queue.sendBatch(bodies.slice(i, i + MAX_BATCH).map((body) => ({ body, ...(delaySeconds ? { delaySeconds } : {}) })));
  }
}

/** Hands outbox events to `store-events` by id (src/webhooks/publisher.ts says who sends what, and when). */
export async function sendEvents(env: Pick<Bindings, 'EVENTS_QUEUE'>, eventIds: readonly string[]): Promise<void> {
  await sendAll(
    env.EVENTS_QUEUE,
    eventIds.map((eventId) => ({ eventId })),
  );
}
