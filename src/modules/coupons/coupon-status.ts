import { sql } from 'drizzle-orm';
import { promotions } from '../../db/schema';

export const COUPON_STATUSES = ['active', 'scheduled', 'expired', 'used_up', 'inactive'] as const;
export type CouponStatus = (typeof COUPON_STATUSES)[number];

export const COUPON_STATUS_DESCRIPTION =
  '`inactive` (switched off), else `expired` (`endsAt` reached), else `used_up` (`timesUsed` reached `usageLimit`), ' +
  'else `scheduled` (`startsAt` not reached yet), else `active`. A coupon applies from `startsAt` (inclusive) until `endsAt` (exclusive).';

/**
 * A coupon's (its promotions row's) status at `now` as one SQL expression, so lists filter and sort on it in the database
 * and every read reports it the same way. Timestamps are ISO UTC text, which compares as it sorts.
 */
export function couponStatusSql(now: string) {
  return sql<CouponStatus>`(CASE
    WHEN ${promotions.active} = 0 THEN 'inactive'
    WHEN ${promotions.endsAt} IS NOT NULL AND ${promotions.endsAt} <= ${now} THEN 'expired'
    WHEN ${promotions.usageLimit} IS NOT NULL AND ${promotions.timesUsed} >= ${promotions.usageLimit} THEN 'used_up'
    WHEN ${promotions.startsAt} IS NOT NULL AND ${promotions.startsAt} > ${now} THEN 'scheduled'
    ELSE 'active' END)`;
}
