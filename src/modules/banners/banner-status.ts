import { sql } from 'drizzle-orm';
import { banners } from '../../db/schema';

export const BANNER_STATUSES = ['live', 'scheduled', 'expired', 'inactive'] as const;
export type BannerStatus = (typeof BANNER_STATUSES)[number];

export const BANNER_STATUS_DESCRIPTION =
  '`inactive` (switched off), else `expired` (`endsAt` reached), else `scheduled` (`startsAt` not reached yet), else `live`. ' +
  'A banner shows from `startsAt` (inclusive) until `endsAt` (exclusive); either may be null for an open end.';

/** A banner's status at `now` as one SQL expression (timestamps are ISO UTC text, which compares as it sorts). */
export function bannerStatusSql(now: string) {
  return sql<BannerStatus>`(CASE
    WHEN ${banners.active} = 0 THEN 'inactive'
    WHEN ${banners.endsAt} IS NOT NULL AND ${banners.endsAt} <= ${now} THEN 'expired'
    WHEN ${banners.startsAt} IS NOT NULL AND ${banners.startsAt} > ${now} THEN 'scheduled'
    ELSE 'live' END)`;
}
