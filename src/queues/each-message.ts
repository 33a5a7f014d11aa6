import { isConstraintFailure } from '../lib/db-errors';

/**
 * How the queue consumers take a batch: the work of all its messages is done together (one D1 read
 * and one D1 write for the batch, not per message), yet every message is acknowledged on its own:
 * acked, retried with its own delay, or, when its part of the work failed, given the consumer's
 * `onError` outcome. One failing message never holds back, or fails, the others.
 */
export type Outcome = 'ack' | { retryAfterSeconds?: number };

/** What a batch handler reports for one message: an outcome, or the error its part of the work met. */
export type Result = Outcome | { error: unknown };

/** One message to work on: the id its body carries, and the message that answers for it. */
export interface Item<Body> {
  id: string;
  message: Message<Body>;
}

export interface BatchConsumer<Body> {
  /** The body field holding the row id (`deliveryId`); a message without one is dropped with a warning. */
  idField: keyof Body & string;
  /** Works on the batch's items (one per distinct id) and returns each one's result, by id. */
  handle: (items: Item<Body>[]) => Promise<Map<string, Result>>;
  /** The outcome of a message whose work failed (or got no result), usually a retry with backoff. */
  onError: (message: Message<Body>, error: unknown) => { retryAfterSeconds?: number };
}

/**
 * Runs `consumer.handle` once for the whole batch and settles every message by its result. Messages
 * naming the same id are one item: the one with the most attempts answers for it (its backoff and
 * its retries left are the ones that count) and the others are acked, so a duplicate message (a
 * re-sent fan-out, a stalled sweep overtaking the queue) is never worked twice at once. When the
 * handler throws, every item gets `onError`.
 */
export async function eachBatch<Body>(batch: MessageBatch<Body>, consumer: BatchConsumer<Body>): Promise<void> {
  const carriers = new Map<string, Message<Body>>();
  const duplicates: Message<Body>[] = [];
  for (const message of batch.messages) {
    const id = (message.body as Record<string, unknown> | undefined)?.[consumer.idField];
    if (typeof id !== 'string') {
      log('warn', `${batch.queue} message without a ${consumer.idField}; dropped`, { body: message.body });
      message.ack();
      continue;
    }
    const held = carriers.get(id);
    if (!held) carriers.set(id, message);
    else if (message.attempts > held.attempts) {
      duplicates.push(held);
      carriers.set(id, message);
    } else duplicates.push(message);
  }
  for (const message of duplicates) message.ack();
  if (carriers.size === 0) return;

  let results: Map<string, Result>;
  try {
    results = await consumer.handle([...carriers].map(([id, message]) => ({ id, message })));
  } catch (error) {
    results = new Map([...carriers.keys()].map((id) => [id, { error }]));
  }
  for (const [id, message] of carriers) {
    const result = results.get(id) ?? { error: new Error('the batch handler gave this message no result') };
    const outcome: Outcome = typeof result === 'object' && 'error' in result ? consumer.onError(message, result.error) : result;
    if (outcome === 'ack') message.ack();
    else message.retry(outcome.retryAfterSeconds === undefined ? undefined : { delaySeconds: outcome.retryAfterSeconds });
  }
}

/** `work` on every item, at most `limit` at once; each item's own result or error, in order. */
export async function settledLimit<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<PromiseSettledResult<R>[]> {
  const settled: PromiseSettledResult<R>[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) {
      try {
        settled[i] = { status: 'fulfilled', value: await work(items[i]!) };
      } catch (reason) {
        settled[i] = { status: 'rejected', reason };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return settled;
}

/**
 * Writes the parts of a batch in one go (one D1 batch: one round trip, one transaction); should the
 * database refuse it (a constraint: a row deleted meanwhile, say), writes each part alone, so that
 * the part it refuses fails only its own message. Any other error (D1 unreachable) fails every part
 * without more calls. Returns the error of every part that could not be written (none: empty).
 */
export async function writeTogetherOrAlone<Part>(parts: readonly Part[], write: (parts: readonly Part[]) => Promise<unknown>): Promise<Map<Part, unknown>> {
  const failed = new Map<Part, unknown>();
  if (parts.length === 0) return failed;
  try {
    await write(parts);
    return failed;
  } catch (error) {
    if (parts.length === 1 || !isConstraintFailure(error)) return new Map(parts.map((part) => [part, error]));
    log('warn', "writing a batch's results together failed; writing them one by one", { parts: parts.length, error: String(error) });
  }
  for (const part of parts) {
    try {
      await write([part]);
    } catch (error) {
      failed.set(part, error);
    }
  }
  return failed;
}

/** One structured log line. */
export function log(level: 'info' | 'warn' | 'error', message: string, fields: Record<string, unknown> = {}): void {
  const line = JSON.stringify({ level, message, ...fields });
  if (level === 'error') console.error(line);
  else if (level === 'warn') console.warn(line);
  else console.log(line);
}
