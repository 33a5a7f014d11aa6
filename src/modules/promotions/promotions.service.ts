import { and, count, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type PromotionRow, promotions } from '../../db/schema';
import { withUniqueConflicts } from '../../lib/db-errors';
import { ApiError } from '../../lib/errors';
import { ID_PREFIX, newId } from '../../lib/ids';
import { toMajor, toMajorOrNull } from '../../lib/money';
import { listPlan, type ParsedListQuery } from '../../lib/query';
import { currencyDigitsSql, entriesOf, defaultMinorUnits } from '../settings';
import { promotionColumns } from './promotion-input';
import { PROMOTION_UNIQUE_FIELDS, updatePromotionRow } from './promotion-update';
import { promotionListQuery } from './promotions.query';
import type { CreatePromotionInput, PromotionOut, UpdatePromotionInput } from './promotions.schemas';

/** Every column and the currencies' digits, to show amounts in major units. */
const columns = { ...getTableColumns(promotions), digits: defaultMinorUnits, currencyDigits: currencyDigitsSql };
type Read = PromotionRow & { digits: number; currencyDigits: ReadonlyMap<string, number> };

function toPromotion({ digits, currencyDigits, ...row }: Read): PromotionOut {
  const { buyXGetY, ...rest } = row;
  return {
    ...rest,
    value: row.type === 'fixed' ? toMajor(Number(row.value), digits) : Number(row.value),
    minSubtotal: toMajorOrNull(row.minSubtotal, digits),
    currencyAmounts: entriesOf(row.currencyAmounts, currencyDigits, (own, d) => ({
      value: row.type === 'fixed' ? toMajor(own.value, d) : null,
      minSubtotal: toMajorOrNull(own.minSubtotal, d),
    })),
    buyXGetY: buyXGetY && { buy: buyXGetY.buy, get: { ...buyXGetY.get, percent: Number(buyXGetY.get.percent) } },
  };
}

export async function listPromotions(db: Database, query: ParsedListQuery<typeof promotionListQuery.filters>) {
  const plan = listPlan(promotionListQuery, query);
  const [rows, totals] = await db.batch([
    db
      .select(columns)
      .from(promotions)
      .where(plan.where)
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    db.select({ total: count() }).from(promotions).where(plan.matching),
  ]);
  return { items: rows.map(toPromotion), total: totals[0]!.total };
}

/** By id, or by code in any case. */
const selectByIdOrCode = (db: Database, idOrCode: string) =>
  db
    .select(columns)
    .from(promotions)
    .where(sql`${promotions.id} = ${idOrCode} OR ${promotions.code} = ${idOrCode.toUpperCase()}`)
    .orderBy(sql`${promotions.id} = ${idOrCode} DESC`)
    .limit(1);

async function read(db: Database, idOrCode: string): Promise<Read> {
  const [found] = await selectByIdOrCode(db, idOrCode);
  if (!found) throw ApiError.notFound('Promotion', idOrCode);
  return found;
}

export async function getPromotion(db: Database, idOrCode: string): Promise<PromotionOut> {
  return toPromotion(await read(db, idOrCode));
}

export async function createPromotion(db: Database, input: CreatePromotionInput, now = new Date()): Promise<PromotionOut> {
  const values = await promotionColumns(db, input);
  const ts = now.toISOString();
  const id = newId(ID_PREFIX.promotion, now.getTime());
  const row = { ...values, id, name: input.name, type: input.type, timesUsed: 0, createdAt: ts, updatedAt: ts };
  const [, [created]] = await withUniqueConflicts(PROMOTION_UNIQUE_FIELDS, () =>
    db.batch([db.insert(promotions).values(row), db.select(columns).from(promotions).where(eq(promotions.id, id))]),
  );
  return toPromotion(created!);
}

/** A coupon's row is the coupon API's to change, with a coupon's rules and answers. */
function assertNotCoupon(row: PromotionRow): void {
  if (row.isCoupon) throw ApiError.conflict(`Promotion ${row.id} is the coupon ${row.code}: change it with /api/coupons/${row.id}`);
}

export async function updatePromotion(db: Database, idOrCode: string, patch: UpdatePromotionInput, now = new Date()): Promise<PromotionOut> {
  const current = await read(db, idOrCode);
  assertNotCoupon(current);
  if (Object.keys(patch).length === 0) return toPromotion(current);
  const set = { ...(await promotionColumns(db, patch, current)), updatedAt: now.toISOString() };
  const target = { id: current.id, isCoupon: false, noun: 'Promotion' as const, idOrCode };
  const row = await updatePromotionRow<Read>(db, target, set, patch.usageLimit, db.select(columns).from(promotions).where(eq(promotions.id, current.id)));
  return toPromotion(row);
}

/** Orders keep the promotions they got (order_lines.promotions), so a used promotion may go too. */
export async function deletePromotion(db: Database, idOrCode: string): Promise<void> {
  const current = await read(db, idOrCode);
  assertNotCoupon(current);
  await db.delete(promotions).where(and(eq(promotions.id, current.id), eq(promotions.isCoupon, false)));
}
