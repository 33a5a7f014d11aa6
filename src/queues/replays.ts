import { createDb } from '../db/client';
import type { Bindings } from '../env';
import type { ReplayMessage } from '../lib/queue-messages';
import { failReplay, replayPage } from '../webhooks/replay';
import { log } from './each-message';

/** `max_retries` of the webhook-replays consumer in wrangler.toml (keep the two in step). */
export const REPLAY_MAX_RETRIES = 5;

/**
 * The `webhook-replays` consumer: each message is the next page of one replay (src/webhooks/replay.ts),
 * which sends the page after itself. A page that keeps failing marks its replay failed on the last
 * try, so it ends, says why, and no longer holds back the next replay of its endpoint.
 */
export async function replayBatch(batch: MessageBatch<ReplayMessage>, env: Bindings): Promise<void> {
  const db = createDb(env.DB);
  for (const message of batch.messages) {
    const replayId = message.body?.replayId;
    try {
      if (typeof replayId === 'string') await replayPage(db, env, replayId);
      message.ack();
    } catch (error) {
      log('error', 'a webhook replay page failed', { replayId, attempts: message.attempts, error: String(error) });
      if (message.attempts <= REPLAY_MAX_RETRIES) {
        message.retry({ delaySeconds: Math.min(60, 2 ** message.attempts) });
        continue;
      }
      await failReplay(db, replayId, `stopped: a page could not be replayed (${String((error as Error)?.message ?? error).slice(0, 200)})`).then(
        () => message.ack(),
        () => message.retry(),
      );
    }
  }
}
