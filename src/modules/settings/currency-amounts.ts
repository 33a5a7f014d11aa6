import { z } from '@hono/zod-openapi';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { currencies } from '../../db/schema';
import type { FieldProblem } from '../../lib/errors';
import { toMinor } from '../../lib/money';
import { CurrencyCode } from './currencies.schemas';
import { amountProblem, getStoreCurrency, type StoreCurrency } from './store-currency';

/**
 * Amounts a shop sets itself in its other currencies (a coupon's €5 beside its $6, a shipping rate's
 * £3.95), where carts in that currency use them instead of converting the default currency's. On the
 * wire a list of entries, one per currency, in major units of that currency; stored as a record keyed
 * by currency code, in its minor units (promotions.currency_amounts, shipping_methods.currency_rates).
 */

/** The store's currencies as these amounts need them: the default (which has no entry) and every currency's digits. */
export interface StoreCurrencies {
  default: StoreCurrency;
  digits: ReadonlyMap<string, number>;
}

export async function getStoreCurrencies(db: Database): Promise<StoreCurrencies> {
  const [store, rows] = await Promise.all([getStoreCurrency(db), db.select({ code: currencies.code, minorUnits: currencies.minorUnits }).from(currencies)]);
  return { default: store, digits: new Map(rows.map((r) => [r.code, r.minorUnits])) };
}

/** Entries a list holds at most: far more currencies than a store sells in. */
const MAX_ENTRIES = 50;

/** At most one entry per currency (422 naming the repeat). */
function oncePerCurrency(entries: { currency: string }[], ctx: z.RefinementCtx) {
  const seen = new Set<string>();
  entries.forEach((entry, i) => {
    if (seen.has(entry.currency)) ctx.addIssue({ code: 'custom', path: [i, 'currency'], message: 'appears twice (one entry per currency)' });
    seen.add(entry.currency);
  });
}

/** A list of per-currency entries of `shape`, at most one per currency. */
export function currencyEntries<S extends z.ZodRawShape>(shape: S) {
  return z
    .array(z.strictObject({ currency: CurrencyCode, ...shape }))
    .max(MAX_ENTRIES)
    .superRefine((entries, ctx) => oncePerCurrency(entries as { currency: string }[], ctx));
}

/** Turns major units of a currency into its minor units, noting a problem (and giving 0) for an amount it cannot hold. */
export type ToMinor = (amount: number, field: string) => number;

/** A ToMinor for a currency of `digits` digits that adds its problems to `errors`. */
export function minorOf(digits: number, errors: FieldProblem[], currency?: string): ToMinor {
  return (amount, field) => {
    const problem = amountProblem(amount, digits, currency);
    if (problem) errors.push({ field, problem });
    return problem ? 0 : toMinor(amount, digits);
  };
}

/**
 * The stored record of `entries` (the body's `field`): each currency must be one of the store's and not
 * its default (whose amounts are the resource's own fields), and `toStored` turns an entry into minor units
 * of its currency. Problems go to `errors`, named `field.i.…`.
 */
export function storedEntries<E extends { currency: string }, S>(
  entries: E[],
  field: string,
  store: StoreCurrencies,
  errors: FieldProblem[],
  toStored: (entry: E, minor: ToMinor, at: string) => S,
): Record<string, S> {
  const record: Record<string, S> = {};
  entries.forEach((entry, i) => {
    const at = `${field}.${i}`;
    const digits = store.digits.get(entry.currency);
    if (digits === undefined)
      errors.push({ field: `${at}.currency`, problem: `'${entry.currency}' is not a currency of the store (add it at /api/settings/currencies)`, code: 'not_found' });
    else if (entry.currency === store.default.code) errors.push({ field: `${at}.currency`, problem: `is the default currency, whose amounts are the fields beside ${field}` });
    else record[entry.currency] = toStored(entry, minorOf(digits, errors, entry.currency), at);
  });
  return record;
}

/**
 * The entries of a stored record in major units, by currency code; a currency the store no longer has
 * is left out (no cart can be in it).
 */
export function entriesOf<S, E>(record: Record<string, S>, digits: ReadonlyMap<string, number>, toEntry: (stored: S, digits: number) => E): (E & { currency: string })[] {
  return Object.keys(record)
    .sort()
    .flatMap((currency) => {
      const d = digits.get(currency);
      return d === undefined ? [] : [{ currency, ...toEntry(record[currency]!, d) }];
    });
}

/** Every currency's digits, as a column of any read: to show a row's per-currency amounts without another round trip. */
export const currencyDigitsSql = sql<string>`(SELECT json_group_object(${currencies.code}, ${currencies.minorUnits}) FROM ${currencies})`.mapWith(
  (json: string) => new Map(Object.entries(JSON.parse(json) as Record<string, number>)) as ReadonlyMap<string, number>,
);
