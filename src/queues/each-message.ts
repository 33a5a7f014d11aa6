/**
 * Runs `handle` for every message of a batch, at most `limit` at a time, and acknowledges each
 * message on its own: acked when its handler returns 'ack', retried (with the handler's delay) when
 * it returns a delay or throws. One failing message never holds back, or fails, the others.
 */
export type Outcome = 'ack' | { retryAfterSeconds?: number };

export async function eachMessage<Body>(
  batch: MessageBatch<Body>,
  limit: number,
  handle: (message: Message<Body>) => Promise<Outcome>,
  onError: (message: Message<Body>, error: unknown) => { retryAfterSeconds?: number },
): Promise<void> {
  const queue = [...batch.messages];
  const worker = async () => {
    for (let message = queue.shift(); message; message = queue.shift()) {
      let outcome: Outcome;
      try {
        outcome = await handle(message);
      } catch (error) {
        outcome = onError(message, error);
      }
      if (outcome === 'ack') message.ack();
      else message.retry(outcome.retryAfterSeconds === undefined ? undefined : { delaySeconds: outcome.retryAfterSeconds });
    }
  };
  await Promise.allSettled(Array.from({ length: Math.min(limit, queue.length) }, worker));
}

/** One structured log line. */
export function log(level: 'info' | 'warn' | 'error', message: string, fields: Record<string, unknown> = {}): void {
  const line = JSON.stringify({ level, message, ...fields });
  if (level === 'error') console.error(line);
  else if (level === 'warn') console.warn(line);
  else console.log(line);
}
