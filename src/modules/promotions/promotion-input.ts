import { inArray } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { brands, categories, customerGroups, type PromotionRow, products, shippingMethods, shippingZones, type StoredProductSet } from '../../db/schema';
import { ApiError, type FieldProblem } from '../../lib/errors';
import { toMinor } from '../../lib/money';
import { decimalText } from '../checkout';
import { getStoreCurrencies, storedEntries, amountProblem } from '../settings';
import type { CreatePromotionInput, UpdatePromotionInput } from './promotions.schemas';

/** Most decimals a percent keeps. */
const PERCENT_DECIMALS = 2;

type Columns = Partial<Omit<PromotionRow, 'id' | 'timesUsed' | 'createdAt' | 'updatedAt'>>;
type Input = CreatePromotionInput | UpdatePromotionInput;
type SetInput = { productIds?: string[]; categoryIds?: string[]; brandIds?: string[] } | undefined | null;

const tables = { products, categories, brands, customerGroups, shippingMethods, shippingZones } as const;
type Referenced = keyof typeof tables;

/** Every id the input refers to, by the table it must be in, with the field that named it. */
function references(input: Input): { table: Referenced; field: string; ids: string[] }[] {
  const ofSet = (set: SetInput, at: string) =>
    set
      ? [
          { table: 'products' as const, field: `${at}.productIds`, ids: set.productIds ?? [] },
          { table: 'categories' as const, field: `${at}.categoryIds`, ids: set.categoryIds ?? [] },
          { table: 'brands' as const, field: `${at}.brandIds`, ids: set.brandIds ?? [] },
        ]
      : [];
  return [
    ...ofSet(input.include, 'include'),
    ...ofSet(input.exclude, 'exclude'),
    ...ofSet(input.buyXGetY?.buy, 'buyXGetY.buy'),
    ...ofSet(input.buyXGetY?.get, 'buyXGetY.get'),
    { table: 'customerGroups' as const, field: 'customerGroupIds', ids: input.customerGroupIds ?? [] },
    { table: 'shippingMethods' as const, field: 'freeShipping.methodIds', ids: input.freeShipping?.methodIds ?? [] },
    { table: 'shippingZones' as const, field: 'freeShipping.zoneIds', ids: input.freeShipping?.zoneIds ?? [] },
  ].filter((r) => r.ids.length > 0);
}

async function missingReferences(db: Database, input: Input): Promise<FieldProblem[]> {
  const refs = references(input);
  const found = await Promise.all(
    refs.map(async ({ table, ids }) => new Set((await db.select({ id: tables[table].id }).from(tables[table]).where(inArray(tables[table].id, ids))).map((r) => r.id))),
  );
  return refs.flatMap(({ field, ids }, i) => {
    const missing = ids.filter((id) => !found[i]!.has(id));
    return missing.length ? [{ field, problem: `no such ids: ${missing.join(', ')}`, code: 'not_found' }] : [];
  });
}

const storedSet = (set: SetInput): StoredProductSet => ({ productIds: set?.productIds ?? [], categoryIds: set?.categoryIds ?? [], brandIds: set?.brandIds ?? [] });
const percentText = (value: number) => (value > 0 && value <= 100 ? decimalText(value, PERCENT_DECIMALS) : null);

/**
 * Checks what the body schema cannot see (the value against the type, what each type needs, the
 * currencies and their decimals, dates, the usage limit against past use, and every id against the
 * database) and gives the column values. Every problem at once, as 422. `current`: the stored row of a patch.
 */
export async function promotionColumns(db: Database, input: Input, current?: PromotionRow): Promise<Columns> {
  const [store, missing] = await Promise.all([getStoreCurrencies(db), missingReferences(db, input)]);
  const errors: FieldProblem[] = [...missing];
  const digits = store.default.minorUnits;
  const { value, minSubtotal, currencyAmounts, include, exclude, buyXGetY, freeShipping, currencies, ...rest } = input;
  const columns: Columns = { ...rest };
  const type = input.type ?? current!.type;
  const changesType = current !== undefined && input.type !== undefined && input.type !== current.type;

  if (type === 'percentage' || type === 'fixed') {
    if (value === undefined) {
      if (!current || changesType) errors.push({ field: 'value', problem: `is required for a ${type} promotion`, code: 'required' });
    } else if (type === 'percentage') {
      const text = percentText(value);
      if (text) columns.value = text;
      else errors.push({ field: 'value', problem: `a percentage must be above 0 and at most 100, with at most ${PERCENT_DECIMALS} decimals` });
    } else {
      const problem = value === 0 ? 'must be above 0' : amountProblem(value, digits);
      if (problem) errors.push({ field: 'value', problem });
      else columns.value = String(toMinor(value, digits));
    }
  } else {
    if (value !== undefined && value !== 0) errors.push({ field: 'value', problem: `is unused for a ${type} promotion: leave it out` });
    columns.value = '0';
  }

  if (buyXGetY !== undefined) {
    columns.buyXGetY = buyXGetY && {
      buy: { ...storedSet(buyXGetY.buy), quantity: buyXGetY.buy.quantity },
      get: { ...storedSet(buyXGetY.get), quantity: buyXGetY.get.quantity, percent: percentText(buyXGetY.get.percent ?? 100) ?? '100' },
    };
    if (buyXGetY?.get.percent !== undefined && !percentText(buyXGetY.get.percent)) {
      errors.push({ field: 'buyXGetY.get.percent', problem: `must be above 0 and at most 100, with at most ${PERCENT_DECIMALS} decimals` });
    }
  }
  const hasBuyXGetY = buyXGetY !== undefined ? buyXGetY !== null : (current?.buyXGetY ?? null) !== null;
  if (type === 'buy_x_get_y' && !hasBuyXGetY) errors.push({ field: 'buyXGetY', problem: 'is required for a buy_x_get_y promotion', code: 'required' });
  if (type !== 'buy_x_get_y' && hasBuyXGetY) {
    if (buyXGetY) errors.push({ field: 'buyXGetY', problem: `is only for buy_x_get_y promotions (this one is ${type})` });
    else columns.buyXGetY = null;
  }

  if (freeShipping !== undefined) columns.freeShipping = freeShipping && { methodIds: freeShipping.methodIds ?? [], zoneIds: freeShipping.zoneIds ?? [] };
  if (type === 'free_shipping' && (freeShipping === null || (freeShipping === undefined && !current?.freeShipping))) columns.freeShipping = { methodIds: [], zoneIds: [] };
  if (type !== 'free_shipping') {
    if (freeShipping) errors.push({ field: 'freeShipping', problem: `is only for free_shipping promotions (this one is ${type})` });
    else columns.freeShipping = null;
  }

  if (minSubtotal !== undefined) {
    const problem = minSubtotal === null ? undefined : amountProblem(minSubtotal, digits);
    if (problem) errors.push({ field: 'minSubtotal', problem });
    else columns.minSubtotal = minSubtotal === null ? null : toMinor(minSubtotal, digits);
  }
  if (currencyAmounts !== undefined) {
    // A fixed promotion's entries give its own amount (and minimum); every other type's only a minimum.
    columns.currencyAmounts = storedEntries(currencyAmounts, 'currencyAmounts', store, errors, (entry, minor, at) => {
      if (type === 'fixed' && entry.value === undefined) errors.push({ field: `${at}.value`, problem: 'is required for a fixed promotion', code: 'required' });
      if (type !== 'fixed' && entry.value !== undefined)
        errors.push({ field: `${at}.value`, problem: `is only for fixed promotions (this one is ${type}): give minSubtotal alone` });
      return {
        value: type === 'fixed' && entry.value !== undefined ? minor(entry.value, `${at}.value`) : 0,
        minSubtotal: entry.minSubtotal == null ? null : minor(entry.minSubtotal, `${at}.minSubtotal`),
      };
    });
  } else if (changesType && (type === 'fixed' || current.type === 'fixed') && Object.keys(current.currencyAmounts).length > 0) {
    errors.push({ field: 'currencyAmounts', problem: `must be sent again with the new type (${type}): a fixed promotion's entries hold amounts, other types' minimums only` });
  }

  if (currencies !== undefined) {
    const unknown = currencies.filter((code) => !store.digits.has(code));
    if (unknown.length) errors.push({ field: 'currencies', problem: `not currencies of the store: ${unknown.join(', ')}`, code: 'not_found' });
    columns.currencies = [...new Set(currencies)];
  }
  if (include !== undefined) columns.include = storedSet(include);
  if (exclude !== undefined) columns.exclude = storedSet(exclude);

  const startsAt = input.startsAt !== undefined ? input.startsAt : current?.startsAt;
  const endsAt = input.endsAt !== undefined ? input.endsAt : current?.endsAt;
  if (startsAt && endsAt && endsAt <= startsAt) errors.push({ field: 'endsAt', problem: `must be after startsAt (${startsAt})` });
  if (current && input.usageLimit != null && input.usageLimit < current.timesUsed) {
    errors.push({ field: 'usageLimit', problem: `cannot be below timesUsed (${current.timesUsed})`, code: 'too_small' });
  }

  if (errors.length) throw ApiError.validation(errors);
  return columns;
}
