import { and, count, eq, getTableColumns, notExists, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type CouponRow, couponUsages, coupons, orders } from '../../db/schema';
import { withUniqueConflicts } from '../../lib/db-errors';
import { ApiError } from '../../lib/errors';
import { ID_PREFIX, newId } from '../../lib/ids';
import { toMajor, toMajorOrNull } from '../../lib/money';
import { listPlan, type ParsedListQuery } from '../../lib/query';
import { currencyDigitsSql, entriesOf } from '../settings/currency-amounts';
import { defaultMinorUnits } from '../settings/store-currency';
import { couponColumns } from './coupon-input';
import { type CouponStatus, couponStatusSql } from './coupon-status';
import { couponListQuery } from './coupons.query';
import type { Coupon, CreateCouponInput, UpdateCouponInput } from './coupons.schemas';

const UNIQUE_FIELDS = { 'coupons.code': 'code' };

/** Every column, the status now, and the currencies' digits to show amounts in major units. */
const columns = (now: Date) => ({
  ...getTableColumns(coupons),
  status: couponStatusSql(now.toISOString()),
  digits: defaultMinorUnits,
  currencyDigits: currencyDigitsSql,
});

function toCoupon({ digits, currencyDigits, ...row }: CouponRow & { status: CouponStatus; digits: number; currencyDigits: ReadonlyMap<string, number> }): Coupon {
  return {
    ...row,
    value: row.type === 'percentage' ? Number(row.value) : toMajor(Number(row.value), digits),
    minSubtotal: toMajorOrNull(row.minSubtotal, digits),
    currencyAmounts: entriesOf(row.currencyAmounts, currencyDigits, (own, d) => ({ value: toMajor(own.value, d), minSubtotal: toMajorOrNull(own.minSubtotal, d) })),
  };
}

export async function listCoupons(db: Database, query: ParsedListQuery<typeof couponListQuery.filters>, now = new Date()) {
  const plan = listPlan(couponListQuery, query);
  const [rows, totals] = await db.batch([
    db
      .select(columns(now))
      .from(coupons)
      .where(plan.where)
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    db.select({ total: count() }).from(coupons).where(plan.matching),
  ]);
  return { items: rows.map(toCoupon), total: totals[0]!.total };
}

/** By id or by code in any case; an id wins over a code that happens to look like one. */
const selectByIdOrCode = (db: Database, idOrCode: string, now: Date) =>
  db
    .select(columns(now))
    .from(coupons)
    .where(or(eq(coupons.id, idOrCode), eq(coupons.code, idOrCode.toUpperCase())))
    .orderBy(sql`${coupons.id} = ${idOrCode} DESC`)
    .limit(1);

export async function getCoupon(db: Database, idOrCode: string, now = new Date()): Promise<Coupon> {
  const [row] = await selectByIdOrCode(db, idOrCode, now);
  if (!row) throw ApiError.notFound('Coupon', idOrCode);
  return toCoupon(row);
}

async function getRow(db: Database, idOrCode: string, now: Date): Promise<CouponRow> {
  const [row] = await selectByIdOrCode(db, idOrCode, now);
  if (!row) throw ApiError.notFound('Coupon', idOrCode);
  const { status: _status, digits: _digits, currencyDigits: _currencyDigits, ...stored } = row;
  return stored;
}

export async function createCoupon(db: Database, input: CreateCouponInput, now = new Date()): Promise<Coupon> {
  const values = await couponColumns(db, input);
  const ts = now.toISOString();
  const id = newId(ID_PREFIX.coupon, now.getTime());
  const row = { ...values, id, code: input.code, type: input.type, value: values.value!, timesUsed: 0, createdAt: ts, updatedAt: ts };
  const [, [created]] = await withUniqueConflicts(UNIQUE_FIELDS, () => db.batch([db.insert(coupons).values(row), db.select(columns(now)).from(coupons).where(eq(coupons.id, id))]));
  return toCoupon(created!);
}

export async function updateCoupon(db: Database, idOrCode: string, patch: UpdateCouponInput, now = new Date()): Promise<Coupon> {
  const current = await getRow(db, idOrCode, now);
  if (Object.keys(patch).length === 0) return getCoupon(db, current.id, now);
  const set = { ...(await couponColumns(db, patch, current)), updatedAt: now.toISOString() };
  // Orders may use the coupon meanwhile: the limit is checked against timesUsed in the UPDATE itself.
  const limitHolds = patch.usageLimit != null ? sql`${coupons.timesUsed} <= ${patch.usageLimit}` : undefined;
  const [updated, [row]] = await withUniqueConflicts(UNIQUE_FIELDS, () =>
    db.batch([
      db
        .update(coupons)
        .set(set)
        .where(and(eq(coupons.id, current.id), limitHolds)),
      db.select(columns(now)).from(coupons).where(eq(coupons.id, current.id)),
    ]),
  );
  if (!row) throw ApiError.notFound('Coupon', idOrCode);
  if (updated.meta.changes === 0) throw ApiError.validation([{ field: 'usageLimit', problem: `cannot be below timesUsed (${row.timesUsed})`, code: 'too_small' }]);
  return toCoupon(row);
}

/**
 * Refused (409) once the coupon has been used: orders point at it and its history matters, so it is
 * deactivated instead. The check lives in the DELETE, so an order placed meanwhile cannot slip through.
 */
export async function deleteCoupon(db: Database, idOrCode: string, now = new Date()): Promise<void> {
  const current = await getRow(db, idOrCode, now);
  const deleted = await db
    .delete(coupons)
    .where(
      and(
        eq(coupons.id, current.id),
        eq(coupons.timesUsed, 0),
        notExists(db.select({ one: sql`1` }).from(couponUsages).where(eq(couponUsages.couponId, current.id))),
        notExists(db.select({ one: sql`1` }).from(orders).where(eq(orders.couponId, current.id))),
      ),
    );
  if (deleted.meta.changes > 0) return;
  throw ApiError.conflict(`Coupon ${current.code} has been used, so orders refer to it; deactivate it instead (PATCH with { "active": false })`);
}
