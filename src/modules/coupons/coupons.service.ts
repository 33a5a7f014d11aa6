import { and, count, eq, notExists, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type CouponRow, orders, type PromotionRow, promotionUsages, promotions } from '../../db/schema';
import { withUniqueConflicts } from '../../lib/db-errors';
import { ApiError } from '../../lib/errors';
import { ID_PREFIX, newId } from '../../lib/ids';
import { toMajor, toMajorOrNull } from '../../lib/money';
import { listPlan, type ParsedListQuery } from '../../lib/query';
import { currencyDigitsSql, entriesOf, defaultMinorUnits } from '../settings';
import { PROMOTION_UNIQUE_FIELDS, updatePromotionRow } from '../promotions';
import { couponColumns } from './coupon-input';
import { type CouponStatus, couponStatusSql } from './coupon-status';
import { couponListQuery } from './coupons.query';
import type { Coupon, CreateCouponInput, UpdateCouponInput } from './coupons.schemas';

/**
 * Coupons are the rows of `promotions` marked `is_coupon` (migration 0070): code promotions on the
 * items of their products and categories, which this API reads and writes with a coupon's fields and
 * answers, as before. Codes are unique across coupons and promotions.
 */

const isCoupon = eq(promotions.isCoupon, true);

/** The columns a coupon shows, the status now, and the currencies' digits to show amounts in major units. */
const columns = (now: Date) => ({
  id: promotions.id,
  code: sql<string>`${promotions.code}`,
  description: promotions.description,
  type: sql<CouponRow['type']>`${promotions.type}`,
  value: promotions.value,
  minSubtotal: promotions.minSubtotal,
  currencyAmounts: promotions.currencyAmounts,
  startsAt: promotions.startsAt,
  endsAt: promotions.endsAt,
  usageLimit: promotions.usageLimit,
  perCustomerLimit: promotions.perCustomerLimit,
  timesUsed: promotions.timesUsed,
  include: promotions.include,
  active: promotions.active,
  createdAt: promotions.createdAt,
  updatedAt: promotions.updatedAt,
  status: couponStatusSql(now.toISOString()),
  digits: defaultMinorUnits,
  currencyDigits: currencyDigitsSql,
});
type Read = Pick<
  PromotionRow,
  | 'id'
  | 'description'
  | 'value'
  | 'minSubtotal'
  | 'currencyAmounts'
  | 'startsAt'
  | 'endsAt'
  | 'usageLimit'
  | 'perCustomerLimit'
  | 'timesUsed'
  | 'include'
  | 'active'
  | 'createdAt'
  | 'updatedAt'
> & { code: string; type: CouponRow['type']; status: CouponStatus; digits: number; currencyDigits: ReadonlyMap<string, number> };

function toCoupon({ digits, currencyDigits, perCustomerLimit, include, ...row }: Read): Coupon {
  return {
    id: row.id,
    code: row.code,
    description: row.description,
    type: row.type,
    value: row.type === 'percentage' ? Number(row.value) : toMajor(Number(row.value), digits),
    minSubtotal: toMajorOrNull(row.minSubtotal, digits),
    currencyAmounts: entriesOf(row.currencyAmounts, currencyDigits, (own, d) => ({ value: toMajor(own.value, d), minSubtotal: toMajorOrNull(own.minSubtotal, d) })),
    startsAt: row.startsAt,
    endsAt: row.endsAt,
    usageLimit: row.usageLimit,
    usageLimitPerCustomer: perCustomerLimit,
    timesUsed: row.timesUsed,
    productIds: include.productIds,
    categoryIds: include.categoryIds,
    active: row.active,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    status: row.status,
  };
}

export async function listCoupons(db: Database, query: ParsedListQuery<typeof couponListQuery.filters>, now = new Date()) {
  const plan = listPlan(couponListQuery, query, [isCoupon]);
  const [rows, totals] = await db.batch([
    db
      .select(columns(now))
      .from(promotions)
      .where(plan.where)
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    db.select({ total: count() }).from(promotions).where(plan.matching),
  ]);
  return { items: rows.map(toCoupon), total: totals[0]!.total };
}

/** By id or by code in any case; an id wins over a code that happens to look like one. A promotion that is no coupon is not found. */
const selectByIdOrCode = (db: Database, idOrCode: string, now: Date) =>
  db
    .select(columns(now))
    .from(promotions)
    .where(and(isCoupon, sql`(${promotions.id} = ${idOrCode} OR ${promotions.code} = ${idOrCode.toUpperCase()})`))
    .orderBy(sql`${promotions.id} = ${idOrCode} DESC`)
    .limit(1);
const selectById = (db: Database, id: string, now: Date) =>
  db
    .select(columns(now))
    .from(promotions)
    .where(and(isCoupon, eq(promotions.id, id)));

async function read(db: Database, idOrCode: string, now: Date): Promise<Read> {
  const [row] = await selectByIdOrCode(db, idOrCode, now);
  if (!row) throw ApiError.notFound('Coupon', idOrCode);
  return row;
}

export async function getCoupon(db: Database, idOrCode: string, now = new Date()): Promise<Coupon> {
  return toCoupon(await read(db, idOrCode, now));
}

export async function createCoupon(db: Database, input: CreateCouponInput, now = new Date()): Promise<Coupon> {
  const values = await couponColumns(db, input);
  const ts = now.toISOString();
  const id = newId(ID_PREFIX.coupon, now.getTime());
  // A coupon is one code a cart holds alone: it combines with automatic promotions, not with other codes.
  const row = {
    ...values,
    id,
    name: input.code,
    type: input.type,
    value: values.value!,
    target: 'items' as const,
    priority: 0,
    combinesWithPromotions: true,
    combinesWithCodes: false,
    isCoupon: true,
    timesUsed: 0,
    createdAt: ts,
    updatedAt: ts,
  };
  const [, [created]] = await withUniqueConflicts(PROMOTION_UNIQUE_FIELDS, () => db.batch([db.insert(promotions).values(row), selectById(db, id, now)]));
  return toCoupon(created!);
}

export async function updateCoupon(db: Database, idOrCode: string, patch: UpdateCouponInput, now = new Date()): Promise<Coupon> {
  const current = await read(db, idOrCode, now);
  if (Object.keys(patch).length === 0) return toCoupon(current);
  const set = { ...(await couponColumns(db, patch, current)), updatedAt: now.toISOString() };
  const target = { id: current.id, isCoupon: true, noun: 'Coupon' as const, idOrCode };
  const row = await updatePromotionRow<Read>(db, target, set, patch.usageLimit, selectById(db, current.id, now));
  return toCoupon(row);
}

/**
 * Refused (409) once the coupon has been used: orders applied it and its history matters, so it is
 * deactivated instead. Used: counted in `times_used`, or an order (a cancelled one too, whose use was
 * given back) names it among its promotions or, placed before orders kept them, by its code. The
 * check lives in the DELETE, so an order placed meanwhile cannot slip through.
 */
export async function deleteCoupon(db: Database, idOrCode: string, now = new Date()): Promise<void> {
  const current = await read(db, idOrCode, now);
  const orderApplied = sql`SELECT 1 FROM ${orders} WHERE ${orders.couponCode} = ${current.code}
    OR EXISTS (SELECT 1 FROM json_each(${orders.promotions}) applied WHERE json_extract(applied.value, '$.promotionId') = ${current.id})`;
  const deleted = await db
    .delete(promotions)
    .where(
      and(
        eq(promotions.id, current.id),
        isCoupon,
        eq(promotions.timesUsed, 0),
        notExists(db.select({ one: sql`1` }).from(promotionUsages).where(eq(promotionUsages.promotionId, current.id))),
        sql`NOT EXISTS (${orderApplied})`,
      ),
    );
  if (deleted.meta.changes > 0) return;
  throw ApiError.conflict(`Coupon ${current.code} has been used, so orders refer to it; deactivate it instead (PATCH with { "active": false })`);
}
