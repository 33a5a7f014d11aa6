import { lt } from 'drizzle-orm';
import { createDb } from './db/client';
import { idempotencyKeys } from './db/schema';
import type { Bindings } from './env';
import { IDEMPOTENCY_TTL_MS } from './middleware/idempotency';

/**
 * The hourly cron (wrangler.toml `[triggers]`): drops remembered idempotent responses once their
 * 24 hours are over. Reads already ignore expired rows, so this only keeps the table small; cron
 * does not fire under `wrangler dev`, which costs nothing locally.
 */
export async function runScheduled(env: Bindings, now = new Date()): Promise<{ idempotencyKeysDeleted: number }> {
  const db = createDb(env.DB);
  const cutoff = new Date(now.getTime() - IDEMPOTENCY_TTL_MS).toISOString();
  const result = await db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, cutoff));
  return { idempotencyKeysDeleted: result.meta.changes };
}
