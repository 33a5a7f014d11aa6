import type { Bindings } from '../env';

/** The Worker's queue handler: each queue of wrangler.toml to its consumer. */
export async function handleQueue(batch: MessageBatch<unknown>, _env: Bindings, _ctx: ExecutionContext): Promise<void> {
  // The consumers (fan-out, delivery, dead letters) arrive with the webhook pipeline.
  for (const message of batch.messages) message.ack();
}
