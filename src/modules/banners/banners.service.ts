import { and, count, eq, getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type BannerRow, banners } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { ID_PREFIX, newId } from '../../lib/ids';
import { listPlan, type ParsedListQuery } from '../../lib/query';
import { isStaff, type Principal } from '../../lib/access';
import { bannerStatusSql } from './banner-status';
import { bannerListQuery } from './banners.query';
import type { Banner, CreateBannerInput, UpdateBannerInput } from './banners.schemas';

const columns = (now: Date) => ({ ...getTableColumns(banners), status: bannerStatusSql(now.toISOString()) });

/** The public sees only live banners: active, and inside their schedule now. */
function visibleTo(principal: Principal, now: Date): SQL | undefined {
  return isStaff(principal, 'content') ? undefined : sql`${bannerStatusSql(now.toISOString())} = 'live'`;
}

export async function listBanners(db: Database, query: ParsedListQuery<typeof bannerListQuery.filters>, principal: Principal, now = new Date()) {
  const plan = listPlan(bannerListQuery, query, [visibleTo(principal, now)]);
  const [items, totals] = await db.batch([
    db
      .select(columns(now))
      .from(banners)
      .where(plan.where)
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    db.select({ total: count() }).from(banners).where(plan.matching),
  ]);
  return { items: items as Banner[], total: totals[0]!.total };
}

async function findBanner(db: Database, id: string, now: Date, condition?: SQL): Promise<Banner> {
  const [row] = await db
    .select(columns(now))
    .from(banners)
    .where(and(eq(banners.id, id), condition))
    .limit(1);
  if (!row) throw ApiError.notFound('Banner', id);
  return row;
}

export function getBanner(db: Database, id: string, principal: Principal, now = new Date()): Promise<Banner> {
  return findBanner(db, id, now, visibleTo(principal, now));
}

/** `endsAt` after `startsAt`, as they will be stored (the patch over the current banner). */
function checkSchedule(startsAt: string | null | undefined, endsAt: string | null | undefined) {
  if (startsAt && endsAt && endsAt <= startsAt) throw ApiError.validation([{ field: 'endsAt', problem: `must be after startsAt (${startsAt})`, code: 'too_small' }]);
}

export async function createBanner(db: Database, input: CreateBannerInput, now = new Date()): Promise<Banner> {
  checkSchedule(input.startsAt, input.endsAt);
  const ts = now.toISOString();
  const row: BannerRow = {
    id: newId(ID_PREFIX.banner, now.getTime()),
    title: input.title,
    imageUrl: input.imageUrl,
    linkUrl: input.linkUrl ?? null,
    altText: input.altText ?? null,
    placement: input.placement,
    position: input.position ?? 0,
    startsAt: input.startsAt ?? null,
    endsAt: input.endsAt ?? null,
    active: input.active ?? true,
    createdAt: ts,
    updatedAt: ts,
  };
  const [, [created]] = await db.batch([db.insert(banners).values(row), db.select(columns(now)).from(banners).where(eq(banners.id, row.id))]);
  return created!;
}

export async function updateBanner(db: Database, id: string, patch: UpdateBannerInput, now = new Date()): Promise<Banner> {
  const current = await findBanner(db, id, now);
  if (Object.keys(patch).length === 0) return current;
  checkSchedule(patch.startsAt !== undefined ? patch.startsAt : current.startsAt, patch.endsAt !== undefined ? patch.endsAt : current.endsAt);
  const [, [updated]] = await db.batch([
    db
      .update(banners)
      .set({ ...patch, updatedAt: now.toISOString() })
      .where(eq(banners.id, current.id)),
    db.select(columns(now)).from(banners).where(eq(banners.id, current.id)),
  ]);
  if (!updated) throw ApiError.notFound('Banner', id);
  return updated;
}

export async function deleteBanner(db: Database, id: string, now = new Date()): Promise<void> {
  const current = await findBanner(db, id, now);
  await db.delete(banners).where(eq(banners.id, current.id));
}
