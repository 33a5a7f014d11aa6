import { asc, count, eq, inArray } from 'drizzle-orm';
import { bulkInserts } from '../../db/bound-parameters';
import type { Database } from '../../db/client';
import { currencies, customerGroups, type PriceListPriceRow, type PriceListRow, priceListPrices, priceLists, productVariants } from '../../db/schema';
import { withForeignKeyConflict } from '../../lib/db-errors';
import { ApiError, type FieldProblem } from '../../lib/errors';
import { ID_PREFIX, newId } from '../../lib/ids';
import { toMajor, toMinor } from '../../lib/money';
import { listPlan, type ParsedListQuery } from '../../lib/query';
import { amountProblem } from '../settings';
import { priceListListQuery } from './price-lists.query';
import type { CreatePriceListInput, PriceList, UpdatePriceListInput } from './price-lists.schemas';

function toPriceList(row: PriceListRow, prices: PriceListPriceRow[], digits: number): PriceList {
  return { ...row, prices: prices.map((p) => ({ variantId: p.variantId, minQuantity: p.minQuantity, amount: toMajor(p.amount, digits) })) };
}

const pricesOf = (db: Database, ids: string[]) =>
  db.select().from(priceListPrices).where(inArray(priceListPrices.priceListId, ids)).orderBy(asc(priceListPrices.variantId), asc(priceListPrices.minQuantity));
const digitsRows = (db: Database) => db.select({ code: currencies.code, minorUnits: currencies.minorUnits }).from(currencies);

export async function listPriceLists(db: Database, query: ParsedListQuery<typeof priceListListQuery.filters>) {
  const plan = listPlan(priceListListQuery, query);
  const [rows, totals, digits] = await db.batch([
    db
      .select()
      .from(priceLists)
      .where(plan.where)
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    db.select({ total: count() }).from(priceLists).where(plan.matching),
    digitsRows(db),
  ]);
  const prices = rows.length
    ? await pricesOf(
        db,
        rows.map((r) => r.id),
      )
    : [];
  const digitsOf = new Map(digits.map((d) => [d.code, d.minorUnits]));
  return {
    items: rows.map((row) =>
      toPriceList(
        row,
        prices.filter((p) => p.priceListId === row.id),
        digitsOf.get(row.currency)!,
      ),
    ),
    total: totals[0]!.total,
  };
}

async function readPriceList(db: Database, id: string) {
  const [rows, prices, digits] = await db.batch([db.select().from(priceLists).where(eq(priceLists.id, id)), pricesOf(db, [id]), digitsRows(db)]);
  const row = rows[0];
  if (!row) throw ApiError.notFound('Price list', id);
  return { row, prices, digits: digits.find((d) => d.code === row.currency)!.minorUnits };
}

export async function getPriceList(db: Database, id: string): Promise<PriceList> {
  const { row, prices, digits } = await readPriceList(db, id);
  return toPriceList(row, prices, digits);
}

/**
 * Checks what a write refers to (the group, the currency, the variants: 422 naming what is missing),
 * the window and each amount against the currency's digits, and gives the price rows.
 */
async function checked(db: Database, listId: string, input: UpdatePriceListInput & { currency?: string }, current?: PriceListRow) {
  const currency = input.currency ?? current!.currency;
  const variantIds = [...new Set((input.prices ?? []).map((p) => p.variantId))];
  const [groups, currencyRows, variants] = await db.batch([
    db
      .select({ id: customerGroups.id })
      .from(customerGroups)
      .where(eq(customerGroups.id, input.customerGroupId ?? '')),
    db.select().from(currencies).where(eq(currencies.code, currency)),
    db
      .select({ id: productVariants.id })
      .from(productVariants)
      .where(inArray(productVariants.id, variantIds.length ? variantIds : [''])),
  ]);
  const errors: FieldProblem[] = [];
  if (input.customerGroupId && !groups[0]) errors.push({ field: 'customerGroupId', problem: `no customer group '${input.customerGroupId}'`, code: 'not_found' });
  const currencyRow = currencyRows[0];
  if (!currencyRow) errors.push({ field: 'currency', problem: `'${currency}' is not a currency of this store (GET /api/settings/currencies)`, code: 'not_found' });
  const startsAt = input.startsAt !== undefined ? input.startsAt : current?.startsAt;
  const endsAt = input.endsAt !== undefined ? input.endsAt : current?.endsAt;
  if (startsAt && endsAt && endsAt <= startsAt) errors.push({ field: 'endsAt', problem: 'must be after startsAt' });
  const found = new Set(variants.map((v) => v.id));
  const rows = (input.prices ?? []).map((p, i): PriceListPriceRow => {
    if (!found.has(p.variantId)) errors.push({ field: `prices.${i}.variantId`, problem: `no variant '${p.variantId}'`, code: 'not_found' });
    const problem = currencyRow ? amountProblem(p.amount, currencyRow.minorUnits, currency) : undefined;
    if (problem) errors.push({ field: `prices.${i}.amount`, problem });
    return { priceListId: listId, variantId: p.variantId, minQuantity: p.minQuantity, amount: currencyRow && !problem ? toMinor(p.amount, currencyRow.minorUnits) : 0 };
  });
  if (errors.length) throw ApiError.validation(errors);
  return input.prices === undefined ? undefined : rows;
}

/** A group, currency or variant checked a moment ago was deleted before the write. */
const GONE = 'The customer group, the currency or a variant was deleted meanwhile; retry';

/** Statements that replace a list's prices with `rows`. */
function replacePrices(db: Database, listId: string, rows: PriceListPriceRow[]) {
  return [db.delete(priceListPrices).where(eq(priceListPrices.priceListId, listId)), ...bulkInserts(db, priceListPrices, rows)];
}

export async function createPriceList(db: Database, input: CreatePriceListInput, now = new Date()): Promise<PriceList> {
  const id = newId(ID_PREFIX.priceList, now.getTime());
  const prices = await checked(db, id, input);
  const ts = now.toISOString();
  const row: PriceListRow = {
    id,
    name: input.name,
    description: input.description ?? null,
    customerGroupId: input.customerGroupId ?? null,
    currency: input.currency,
    status: input.status ?? 'draft',
    startsAt: input.startsAt ?? null,
    endsAt: input.endsAt ?? null,
    createdAt: ts,
    updatedAt: ts,
  };
  await withForeignKeyConflict(GONE, () => db.batch([db.insert(priceLists).values(row), ...replacePrices(db, id, prices ?? [])]));
  return getPriceList(db, id);
}

export async function updatePriceList(db: Database, id: string, patch: UpdatePriceListInput, now = new Date()): Promise<PriceList> {
  const current = await readPriceList(db, id);
  if (Object.keys(patch).length === 0) return toPriceList(current.row, current.prices, current.digits);
  const prices = await checked(db, id, patch, current.row);
  const { prices: _prices, ...columns } = patch;
  await withForeignKeyConflict(GONE, () =>
    db.batch([
      db
        .update(priceLists)
        .set({ ...columns, updatedAt: now.toISOString() })
        .where(eq(priceLists.id, id)),
      ...(prices ? replacePrices(db, id, prices) : []),
    ]),
  );
  return getPriceList(db, id);
}

/** Its prices go with it. */
export async function deletePriceList(db: Database, id: string): Promise<void> {
  const result = await db.delete(priceLists).where(eq(priceLists.id, id));
  if (result.meta.changes === 0) throw ApiError.notFound('Price list', id);
}
