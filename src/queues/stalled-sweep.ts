import { keptPerIsolate } from '../lib/isolate-state';

/**
 * How often this isolate's store-events consumer also looks for deliveries and notifications whose
 * queue message was lost (src/lib/requeue-stalled.ts). The minute cron does the same in production;
 * this makes a local `wrangler dev` heal after a crash too, and costs no round trip of its own: the
 * look-up rides in the consumer's first D1 batch, and only stalled rows found cost a write.
 */
export const SWEEP_EVERY_MS = 60_000;

let lastSweepAt = Number.NEGATIVE_INFINITY;
keptPerIsolate(() => {
  lastSweepAt = Number.NEGATIVE_INFINITY;
});

/** True at most once a minute per isolate; the caller that gets true does the sweep. */
export function sweepDue(now = Date.now()): boolean {
  if (now - lastSweepAt < SWEEP_EVERY_MS) return false;
  lastSweepAt = now;
  return true;
}
