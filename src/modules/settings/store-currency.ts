import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { currencies, storeSettings } from '../../db/schema';
import { hasAtMostDecimals, MAX_MAJOR_AMOUNT } from '../../lib/money';

/**
 * The store's default currency: catalogue prices, coupon amounts and shipping settings are integer
 * minor units of it, so whoever reads or writes them needs its minor-unit digits.
 */
export const STORE_ID = 'store';

/** SQL for the default currency's code, usable inside any statement. */
export const defaultCurrencyCode = sql<string>`(SELECT ${storeSettings.defaultCurrency} FROM ${storeSettings} WHERE ${storeSettings.id} = ${STORE_ID})`;

/** SQL for the default currency's minor-unit digits, so a read can convert amounts without another round trip. */
export const defaultMinorUnits = sql<number>`(SELECT ${currencies.minorUnits} FROM ${currencies} WHERE ${currencies.code} = ${defaultCurrencyCode})`;

export interface StoreCurrency {
  code: string;
  minorUnits: number;
}

export async function getStoreCurrency(db: Database): Promise<StoreCurrency> {
  const [row] = await db
    .select({ code: currencies.code, minorUnits: currencies.minorUnits })
    .from(storeSettings)
    .innerJoin(currencies, eq(currencies.code, storeSettings.defaultCurrency))
    .where(eq(storeSettings.id, STORE_ID))
    .limit(1);
  if (!row) throw new Error('The store settings row or its default currency is missing');
  return row;
}

/** Why a major-unit amount cannot be stored in a currency (the default unless named) with `digits` minor digits, or undefined when it can. */
export function amountProblem(amount: number, digits: number, currency?: string): string | undefined {
  if (!(amount >= 0 && amount <= MAX_MAJOR_AMOUNT)) return `must be from 0 to ${MAX_MAJOR_AMOUNT}`;
  if (!hasAtMostDecimals(amount, digits)) return `must have at most ${digits} decimals (the minor units of ${currency ?? "the store's default currency"})`;
  return undefined;
}
