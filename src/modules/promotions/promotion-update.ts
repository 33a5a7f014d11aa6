import { and, eq, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Database } from '../../db/client';
import { type PromotionRow, promotions } from '../../db/schema';
import { withUniqueConflicts } from '../../lib/db-errors';
import { ApiError } from '../../lib/errors';

/** The unique column of promotions (coupons' too), named as both APIs call it. */
export const PROMOTION_UNIQUE_FIELDS = { 'promotions.code': 'code' };

/**
 * Writes a promotion row's changes and reads it back in one batch, for /api/promotions and
 * /api/coupons alike (`isCoupon`: each changes only its own rows). Orders may use the row meanwhile,
 * so a new `usageLimit` is checked against `times_used` in the UPDATE itself: below it, 422.
 */
export async function updatePromotionRow<R extends { timesUsed: number }>(
  db: Database,
  target: { id: string; isCoupon: boolean; noun: 'Promotion' | 'Coupon'; idOrCode: string },
  set: Partial<PromotionRow>,
  usageLimit: number | null | undefined,
  readBack: BatchItem<'sqlite'>,
): Promise<R> {
  const limitHolds = usageLimit != null ? sql`${promotions.timesUsed} <= ${usageLimit}` : undefined;
  const update = db
    .update(promotions)
    .set(set)
    .where(and(eq(promotions.id, target.id), eq(promotions.isCoupon, target.isCoupon), limitHolds));
  const [updated, [row]] = (await withUniqueConflicts(PROMOTION_UNIQUE_FIELDS, () => db.batch([update, readBack]))) as [{ meta: { changes: number } }, R[]];
  if (!row) throw ApiError.notFound(target.noun, target.idOrCode);
  if (updated.meta.changes === 0) throw ApiError.validation([{ field: 'usageLimit', problem: `cannot be below timesUsed (${row.timesUsed})`, code: 'too_small' }]);
  return row;
}
