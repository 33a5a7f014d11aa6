import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type ReturnRow, type ReturnStatus, returns } from '../../db/schema';

// A return's moves, kept with the ledger because the refund that pays a received return marks it
// refunded in the refund's own batch (settle.ts); returns.service.ts makes every other move with them.

/** The statuses a return moves to (returns.schemas.ts RETURN_MOVES): all but `requested`, where it starts. */
type ReturnMove = Exclude<ReturnStatus, 'requested'>;

/**
 * The statement that marks a received return refunded, for the batch that writes its refund: it
 * changes nothing unless the return is still `received` (check `meta.changes`).
 */
export function returnRefundedStatement(db: Database, returnId: string, now = new Date()) {
  return moveStatement(db, returnId, 'received', movedTo('refunded', now.toISOString()));
}

/** What a move writes: the status, its timestamp (`closedAt` for the final ones) and `updatedAt`. */
export function movedTo(status: ReturnMove, ts: string): Partial<ReturnRow> {
  const stamps: Partial<ReturnRow> = {
    approved: { approvedAt: ts },
    received: { receivedAt: ts },
    refunded: { refundedAt: ts, closedAt: ts },
    rejected: { closedAt: ts },
    cancelled: { closedAt: ts },
  }[status];
  return { status, ...stamps, updatedAt: ts };
}

/** The move as one guarded UPDATE: it changes nothing unless the return is still `from`, so of two racing moves one wins. */
export function moveStatement(db: Database, returnId: string, from: ReturnStatus, set: Partial<ReturnRow>) {
  return db
    .update(returns)
    .set(set)
    .where(and(eq(returns.id, returnId), eq(returns.status, from)));
}
