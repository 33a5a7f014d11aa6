import { and, eq, exists, gt, lte, or, sql } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Database } from '../../db/client';
import { catalogueVersion } from '../../db/schema';
import { banners, pages } from '../../db/schema/content';
import { priceLists } from '../../db/schema/price-lists';

/** Two cron periods, so a late or skipped run misses nothing (a second bump costs one cache miss). */
const WINDOW_MS = 120_000;

/**
 * Pages, banners and price lists can change what the public sees by the clock alone (a page's `publishedAt`, a
 * banner's or an active price list's `startsAt` or `endsAt` coming: signed-in customers' kept answers show its prices), with no write for the catalogue version's triggers to
 * see. The one-minute cron calls this: when such a moment fell in the last two minutes, the
 * catalogue version changes, so kept answers (src/middleware/catalogue-cache.ts) are rendered anew.
 * A scheduled page therefore appears within a minute of its time, plus CATALOGUE_CACHE_QUIET_MS.
 * Returns whether the version changed.
 */
export async function bumpForScheduledContent(db: Database, now = new Date()): Promise<boolean> {
  const since = new Date(now.getTime() - WINDOW_MS).toISOString();
  const until = now.toISOString();
  const came = (column: SQLiteColumn) => and(gt(column, since), lte(column, until));
  const due = or(
    exists(
      db
        .select({ one: sql`1` })
        .from(pages)
        .where(and(eq(pages.status, 'published'), came(pages.publishedAt))),
    ),
    exists(
      db
        .select({ one: sql`1` })
        .from(banners)
        .where(and(eq(banners.active, true), or(came(banners.startsAt), came(banners.endsAt)))),
    ),
    exists(
      db
        .select({ one: sql`1` })
        .from(priceLists)
        .where(and(eq(priceLists.status, 'active'), or(came(priceLists.startsAt), came(priceLists.endsAt)))),
    ),
  );
  const result = await db
    .update(catalogueVersion)
    .set({ version: sql`(random() & 9007199254740991)` })
    .where(and(eq(catalogueVersion.id, 1), due));
  return result.meta.changes > 0;
}
