import { and, asc, inArray, isNotNull, lt } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { events } from '../../db/schema';

/** Events deleted per statement: one batch of ids (D1 allows 100 bound parameters, so they go as a subquery). */
const PRUNE_BATCH = 500;
/** Statements per cron run: 20 × 500 = 10,000 events an hour at most, the rest the next hour. */
const PRUNE_ROUNDS = 20;

/**
 * The hourly cron's pruning of events older than EVENT_RETENTION_DAYS, oldest first, in batches so
 * no statement runs long. An event not yet handed to the queue is kept whatever its age (the
 * minute's sweep publishes it first). Deliveries keep their rows; one of a pruned event shows no
 * payload and cannot be redelivered.
 */
export async function pruneEvents(db: Database, retentionDays: number, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000).toISOString();
  let pruned = 0;
  for (let round = 0; round < PRUNE_ROUNDS; round++) {
    const oldest = db
      .select({ id: events.id })
      .from(events)
      .where(and(lt(events.createdAt, cutoff), isNotNull(events.publishedAt)))
      .orderBy(asc(events.createdAt))
      .limit(PRUNE_BATCH);
    const result = await db.delete(events).where(inArray(events.id, oldest));
    pruned += result.meta.changes;
    if (result.meta.changes < PRUNE_BATCH) break;
  }
  return pruned;
}
