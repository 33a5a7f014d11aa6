import { inArray } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { categories, type CouponRow, type PromotionRow, products } from '../../db/schema';
import { ApiError, type FieldProblem } from '../../lib/errors';
import { toMinor } from '../../lib/money';
import { decimalText } from '../checkout';
import { getStoreCurrencies, type StoreCurrencies, storedEntries, amountProblem } from '../settings';
import type { CreateCouponInput, UpdateCouponInput } from './coupons.schemas';

/** Most decimals a percentage keeps. */
const PERCENT_DECIMALS = 2;

/** A coupon's stored promotions row (is_coupon), as a patch checks against it. */
type Stored = Pick<PromotionRow, 'value' | 'currencyAmounts' | 'startsAt' | 'endsAt' | 'timesUsed' | 'include'> & { type: CouponRow['type'] };
type Columns = Partial<Omit<PromotionRow, 'id' | 'timesUsed' | 'isCoupon' | 'createdAt' | 'updatedAt'>>;

async function missingIds(db: Database, table: typeof products | typeof categories, ids: string[] | undefined): Promise<string[]> {
  if (!ids?.length) return [];
  const found = new Set((await db.select({ id: table.id }).from(table).where(inArray(table.id, ids))).map((r) => r.id));
  return ids.filter((id) => !found.has(id));
}

/** The stored form of a value: exact percent text, or minor units of the default currency as text. */
function storedValue(type: CouponRow['type'], value: number, digits: number): { text?: string; problem?: string } {
  if (type === 'percentage') {
    const text = value <= 100 ? decimalText(value, PERCENT_DECIMALS) : null;
    return text ? { text } : { problem: `a percentage must be above 0 and at most 100, with at most ${PERCENT_DECIMALS} decimals` };
  }
  const problem = amountProblem(value, digits);
  return problem ? { problem } : { text: String(toMinor(value, digits)) };
}

/** A fixed coupon's own amounts in minor units of each currency (promotions.currency_amounts). */
function storedAmounts(amounts: NonNullable<CreateCouponInput['currencyAmounts']>, store: StoreCurrencies, errors: FieldProblem[]): PromotionRow['currencyAmounts'] {
  return storedEntries(amounts, 'currencyAmounts', store, errors, (entry, minor, at) => ({
    value: minor(entry.value, `${at}.value`),
    minSubtotal: entry.minSubtotal == null ? null : minor(entry.minSubtotal, `${at}.minSubtotal`),
  }));
}

/**
 * Checks what the body schema cannot see (the value against its type, the currencies'
 * decimals, dates against each other, products and categories against the database, the usage
 * limit against past use) and turns the input into the columns of the coupon's promotions row: the
 * code is its name too, `usageLimitPerCustomer` is `per_customer_limit`, and `productIds` and
 * `categoryIds` make its `include`. Every problem is reported at once as 422. `current` is the stored
 * coupon for a patch.
 */
export async function couponColumns(db: Database, input: CreateCouponInput | UpdateCouponInput, current?: Stored): Promise<Columns> {
  const [store, missingProducts, missingCategories] = await Promise.all([
    getStoreCurrencies(db),
    missingIds(db, products, input.productIds),
    missingIds(db, categories, input.categoryIds),
  ]);
  const errors: FieldProblem[] = [];
  const currency = store.default;
  const { value, minSubtotal, currencyAmounts, usageLimitPerCustomer, productIds, categoryIds, ...rest } = input;
  const columns: Columns = { ...rest };
  if (input.code !== undefined) columns.name = input.code;
  if (usageLimitPerCustomer !== undefined) columns.perCustomerLimit = usageLimitPerCustomer;
  if (productIds !== undefined || categoryIds !== undefined) {
    const include = current?.include;
    columns.include = { productIds: productIds ?? include?.productIds ?? [], categoryIds: categoryIds ?? include?.categoryIds ?? [], brandIds: [] };
  }

  const type = input.type ?? current!.type;
  if (value !== undefined) {
    const stored = storedValue(type, value, currency.minorUnits);
    if (stored.problem) errors.push({ field: 'value', problem: stored.problem });
    else columns.value = stored.text!;
  } else if (current && input.type !== undefined && input.type !== current.type) {
    errors.push({ field: 'value', problem: `is required when type changes (the value means something else for '${input.type}')`, code: 'required' });
  }

  if (minSubtotal !== undefined) {
    const problem = minSubtotal === null ? undefined : amountProblem(minSubtotal, currency.minorUnits);
    if (problem) errors.push({ field: 'minSubtotal', problem: problem });
    else columns.minSubtotal = minSubtotal === null ? null : toMinor(minSubtotal, currency.minorUnits);
  }

  if (currencyAmounts !== undefined) columns.currencyAmounts = storedAmounts(currencyAmounts, store, errors);
  const hasAmounts = currencyAmounts !== undefined ? currencyAmounts.length > 0 : Object.keys(current?.currencyAmounts ?? {}).length > 0;
  if (type === 'percentage' && hasAmounts) {
    const problem = `must be empty for a percentage coupon (its percent applies in every currency)${currencyAmounts === undefined ? ': send [] with the new type' : ''}`;
    errors.push({ field: 'currencyAmounts', problem });
  }

  const startsAt = input.startsAt !== undefined ? input.startsAt : current?.startsAt;
  const endsAt = input.endsAt !== undefined ? input.endsAt : current?.endsAt;
  if (startsAt && endsAt && endsAt <= startsAt) errors.push({ field: 'endsAt', problem: `must be after startsAt (${startsAt})` });

  if (current && input.usageLimit != null && input.usageLimit < current.timesUsed) {
    errors.push({ field: 'usageLimit', problem: `cannot be below timesUsed (${current.timesUsed})`, code: 'too_small' });
  }
  if (missingProducts.length) errors.push({ field: 'productIds', problem: `no such products: ${missingProducts.join(', ')}`, code: 'not_found' });
  if (missingCategories.length) errors.push({ field: 'categoryIds', problem: `no such categories: ${missingCategories.join(', ')}`, code: 'not_found' });

  if (errors.length) throw ApiError.validation(errors);
  return columns;
}
