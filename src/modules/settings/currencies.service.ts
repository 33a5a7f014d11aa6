import { and, count, eq, getTableColumns, ne, notExists, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { carts, type CurrencyRow, currencies, orders } from '../../db/schema';
import { withUniqueConflicts } from '../../lib/db-errors';
import { ApiError } from '../../lib/errors';
import { listPlan, type ParsedListQuery } from '../../lib/query';
import { decimalText } from '../checkout';
import { currencyListQuery } from './currencies.query';
import { type CreateCurrencyInput, type Currency, RATE_DECIMALS, type UpdateCurrencyInput } from './currencies.schemas';
import { dropOwnAmountsOfDeleted, noOwnAmountsIn } from './own-amounts';
import { defaultCurrencyCode } from './store-currency';

const UNIQUE_FIELDS = { 'currencies.code': 'code' };

/** Public callers see enabled currencies only; a disabled one does not exist for them. */
const visibleTo = (staff: boolean) => (staff ? undefined : eq(currencies.enabled, true));

const columns = { ...getTableColumns(currencies), isDefault: sql<number>`${currencies.code} = ${defaultCurrencyCode}` };

function toCurrency(row: CurrencyRow & { isDefault: number | boolean }): Currency {
  return { ...row, exchangeRate: Number(row.exchangeRate), isDefault: Boolean(row.isDefault) };
}

const rateText = (rate: number) => decimalText(rate, RATE_DECIMALS)!;

export async function listCurrencies(db: Database, query: ParsedListQuery<typeof currencyListQuery.filters>, staff: boolean) {
  const plan = listPlan(currencyListQuery, query, [visibleTo(staff)]);
  const [rows, totals] = await db.batch([
    db
      .select(columns)
      .from(currencies)
      .where(plan.where)
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    db.select({ total: count() }).from(currencies).where(plan.matching),
  ]);
  return { items: rows.map(toCurrency), total: totals[0]!.total };
}

async function findCurrency(db: Database, code: string, condition?: SQL): Promise<Currency | undefined> {
  const [row] = await db
    .select(columns)
    .from(currencies)
    .where(and(eq(currencies.code, code), condition))
    .limit(1);
  return row && toCurrency(row);
}

export async function getCurrency(db: Database, code: string, staff = true): Promise<Currency> {
  const currency = await findCurrency(db, code, visibleTo(staff));
  if (!currency) throw ApiError.notFound('Currency', code);
  return currency;
}

export async function createCurrency(db: Database, input: CreateCurrencyInput, now = new Date()): Promise<Currency> {
  const ts = now.toISOString();
  const row: CurrencyRow = {
    code: input.code,
    name: input.name,
    symbol: input.symbol,
    minorUnits: input.minorUnits ?? 2,
    exchangeRate: rateText(input.exchangeRate),
    enabled: input.enabled ?? true,
    pricesIncludeTax: input.pricesIncludeTax ?? null,
    createdAt: ts,
    updatedAt: ts,
  };
  await withUniqueConflicts(UNIQUE_FIELDS, () => db.insert(currencies).values(row));
  return toCurrency({ ...row, isDefault: false });
}

/**
 * What the default currency may not do: amounts everywhere are its minor units and every rate is
 * relative to it, so it stays enabled, at rate 1, with the same minor units. Returns why, or undefined.
 */
function changeRefusedForDefault(current: Currency, patch: UpdateCurrencyInput): string | undefined {
  if (patch.enabled === false) return `${current.code} is the default currency and cannot be disabled; make another currency the default first`;
  if (patch.exchangeRate !== undefined && rateText(patch.exchangeRate) !== '1') {
    return `${current.code} is the default currency: its exchange rate is always 1 (other rates are relative to it)`;
  }
  if (patch.minorUnits !== undefined && patch.minorUnits !== current.minorUnits) {
    return `${current.code} is the default currency: prices are stored in its minor units, so they cannot change`;
  }
  return undefined;
}

export async function updateCurrency(db: Database, code: string, patch: UpdateCurrencyInput, now = new Date()): Promise<Currency> {
  const current = await getCurrency(db, code);
  const refusal = changeRefusedForDefault(current, patch);
  if (refusal && current.isDefault) throw ApiError.conflict(refusal, 'code');
  if (Object.keys(patch).length === 0) return current;
  const { exchangeRate, ...rest } = patch;
  const set = { ...rest, ...(exchangeRate !== undefined ? { exchangeRate: rateText(exchangeRate) } : {}), updatedAt: now.toISOString() };
  // The default may change between the read and this write: the guard decides, in the statement.
  const guard = refusal ? ne(currencies.code, defaultCurrencyCode) : undefined;
  // Own prices and amounts in the currency are minor units of it: its digits stay while there are any.
  const rescales = patch.minorUnits !== undefined && patch.minorUnits !== current.minorUnits;
  const result = await db
    .update(currencies)
    .set(set)
    .where(and(eq(currencies.code, current.code), guard, rescales ? noOwnAmountsIn(current.code) : undefined));
  if (result.meta.changes === 0 && rescales && !(refusal && current.isDefault)) {
    throw ApiError.conflict(
      `Products, coupons, shipping methods or price lists have their own amounts in ${current.code}, kept in its minor units: remove them before changing minorUnits`,
      'minorUnits',
    );
  }
  if (result.meta.changes === 0) throw ApiError.conflict(refusal ?? `Currency ${current.code} changed meanwhile; retry`, 'code');
  return { ...current, ...set, exchangeRate: Number(set.exchangeRate ?? current.exchangeRate) };
}

/**
 * Refused (409) for the default currency and for a currency that carts or orders are in; disabling
 * it hides it instead. The checks live in the DELETE itself, so a concurrent order cannot slip through.
 */
export async function deleteCurrency(db: Database, code: string): Promise<void> {
  const current = await getCurrency(db, code);
  if (current.isDefault) throw ApiError.conflict(`${current.code} is the default currency and cannot be deleted; make another currency the default first`);
  const inUse = (table: typeof carts | typeof orders) => notExists(db.select({ one: sql`1` }).from(table).where(eq(table.currency, current.code)));
  const [deleted] = await db.batch([
    db.delete(currencies).where(and(eq(currencies.code, current.code), ne(currencies.code, defaultCurrencyCode), inUse(carts), inUse(orders))),
    ...dropOwnAmountsOfDeleted(db, current.code),
  ]);
  if (deleted.meta.changes > 0) return;
  throw ApiError.conflict(`${current.code} is used by carts or orders (or became the default); disable it instead (PATCH enabled: false)`);
}
