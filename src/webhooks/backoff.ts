/**
 * Retry delays of a failed delivery: exponential from a base (WEBHOOK_RETRY_BASE_SECONDS, 30 s by
 * default), doubling per attempt, capped at 6 hours (Queues accepts at most 12 h), with EQUAL
 * jitter: half the step is fixed and half random. Full jitter could draw zeros and shrink the
 * whole schedule to nothing; equal jitter spreads retries of many deliveries that failed together
 * while guaranteeing at least half of each step, so the schedule's length has a floor (more than
 * 24 hours for the default base, see test/webhooks/consumer.backoff.test.ts).
 */

export const MAX_RETRY_DELAY_SECONDS = 6 * 60 * 60;

/** `max_retries` of the webhook-deliveries consumer in wrangler.toml (keep the two in step). */
export const DELIVERY_MAX_RETRIES = 20;

/** The unjittered step after attempt `attempt` (1 for the first delivery) failed. */
export function backoffStepSeconds(attempt: number, baseSeconds: number): number {
  return Math.min(MAX_RETRY_DELAY_SECONDS, baseSeconds * 2 ** (Math.max(1, attempt) - 1));
}

/** Seconds to wait before the next attempt; a whole number, as Queues wants, between half the step and the step. */
export function retryDelaySeconds(attempt: number, baseSeconds: number, random: () => number = Math.random): number {
  const step = backoffStepSeconds(attempt, baseSeconds);
  return Math.min(MAX_RETRY_DELAY_SECONDS, Math.max(1, Math.ceil(step / 2 + (random() * step) / 2)));
}

/** Whether the queue will deliver the message again after attempt `attempt` fails (or dead-letter it instead). */
export function hasRetryLeft(attempt: number, maxRetries = DELIVERY_MAX_RETRIES): boolean {
  return attempt <= maxRetries;
}
