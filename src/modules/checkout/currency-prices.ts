import { z } from '@hono/zod-openapi';
import type { CurrencyPrices } from '../../db/schema';
import type { FieldProblem } from '../../lib/errors';
import { hasAtMostDecimals, MAX_MAJOR_AMOUNT, toMajor, toMajorOrNull, toMinor } from '../../lib/money';
import { convertMinor } from './rates';

/**
 * Amounts a shop sets itself per currency (a product's €29.90 beside its $32.00), on the wire as a
 * list of `{currency, amount, compareAt}` in major units of each currency, stored as a map of minor
 * units by code (CurrencyPrices). An own amount wins over conversion by exchange rate for its
 * currency; a currency without one is converted from the default-currency amount.
 */

/** Most entries a list may hold: one per currency a store sells in. */
export const MAX_CURRENCY_PRICES = 50;

/** Most decimals any currency has (currencies.minorUnits); each amount is checked against its own currency's. */
const MAX_DIGITS = 4;

const Amount = z
  .number()
  .min(0)
  .max(MAX_MAJOR_AMOUNT)
  .refine((n) => hasAtMostDecimals(n, MAX_DIGITS), `must have at most ${MAX_DIGITS} decimals`);

export const CurrencyPriceSchema = z
  .strictObject({
    currency: z
      .string()
      .regex(/^[A-Za-z]{3}$/, 'must be a three-letter ISO 4217 code, like EUR')
      .transform((code) => code.toUpperCase())
      .openapi({ example: 'EUR', description: "ISO 4217 code of one of the store's currencies, other than the default; upper-cased." }),
    amount: Amount.openapi({ description: 'The price in the major unit of that currency, at most as many decimals as its `minorUnits`.', example: 29.9 }),
    compareAt: Amount.nullable().optional().openapi({ description: 'The compare-at ("was") price in that currency, or null.', example: 34.9 }),
  })
  .openapi('CurrencyPrice');

/** `prices` on a write: the whole set (an empty list clears it), at most one entry per currency. */
export const CurrencyPricesInput = z
  .array(CurrencyPriceSchema)
  .max(MAX_CURRENCY_PRICES)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((entry, i) => {
      if (seen.has(entry.currency)) ctx.addIssue({ code: 'custom', path: [i, 'currency'], message: `${entry.currency} appears more than once` });
      seen.add(entry.currency);
    });
  })
  .openapi({
    description:
      "Prices set per currency, which win over conversion by exchange rate for their currency (`GET /api/settings/currencies`). On a write the list replaces the set; `[]` clears it; absent leaves it as it is. Each currency must be one of the store's, not its default currency (whose price is `price`).",
  });

/** `prices` on a read: the same entries, `compareAt` always present. */
export const CurrencyPricesOutput = z
  .array(z.object({ currency: z.string(), amount: z.number(), compareAt: z.number().nullable() }))
  .openapi({ description: 'Prices set per currency, in major units of each, ordered by currency code. Currencies without one are converted from `price` by exchange rate.' });

export type CurrencyPriceInput = z.infer<typeof CurrencyPriceSchema>;
export type CurrencyPriceList = z.infer<typeof CurrencyPricesOutput>;

/** What converting and checking amounts needs to know of a currency. */
export interface CurrencyInfo {
  code: string;
  minorUnits: number;
  /** Units of this currency per unit of the default currency, as decimal text. */
  exchangeRate: string;
  enabled: boolean;
}

/** The store's currencies by code, and which is the default. */
export interface CurrencyTable {
  defaultCode: string;
  byCode: ReadonlyMap<string, CurrencyInfo>;
}

/**
 * A written list as the stored map, checked against the store's currencies; `field` names the list
 * in problems (`prices`, `variants.0.prices`).
 */
export function storedPrices(list: CurrencyPriceInput[], table: CurrencyTable, field: string): { prices: CurrencyPrices; problems: FieldProblem[] } {
  const prices: CurrencyPrices = {};
  const problems: FieldProblem[] = [];
  list.forEach((entry, i) => {
    const at = `${field}.${i}`;
    const currency = table.byCode.get(entry.currency);
    if (!currency) return problems.push({ field: `${at}.currency`, problem: `no currency '${entry.currency}' (GET /api/settings/currencies)`, code: 'not_found' });
    if (currency.code === table.defaultCode) {
      return problems.push({ field: `${at}.currency`, problem: `${currency.code} is the default currency: its price is \`price\`` });
    }
    const digits = currency.minorUnits;
    const tooPrecise = () => `must have at most ${digits} decimals (the minor units of ${currency.code})`;
    if (!hasAtMostDecimals(entry.amount, digits)) problems.push({ field: `${at}.amount`, problem: tooPrecise() });
    if (entry.compareAt != null && !hasAtMostDecimals(entry.compareAt, digits)) problems.push({ field: `${at}.compareAt`, problem: tooPrecise() });
    if (problems.length) return;
    prices[currency.code] = { amount: toMinor(entry.amount, digits), compareAt: entry.compareAt == null ? null : toMinor(entry.compareAt, digits) };
  });
  return { prices, problems };
}

/** The stored map as the list a read shows; an entry whose currency is gone is not shown. */
export function listedPrices(prices: CurrencyPrices | undefined, table: CurrencyTable): CurrencyPriceList {
  return Object.entries(prices ?? {})
    .flatMap(([code, p]) => {
      const digits = table.byCode.get(code)?.minorUnits;
      return digits === undefined ? [] : [{ currency: code, amount: toMajor(p.amount, digits), compareAt: toMajorOrNull(p.compareAt, digits) }];
    })
    .sort((a, b) => (a.currency < b.currency ? -1 : 1));
}

/**
 * The default-currency bound (minor units) that selects, among amounts converted to `target`, the
 * same ones as `targetMinor` does there: the least amount converting to at least it (`min`), or the
 * most converting to at most it (`max`). Exact, since conversion only ever rounds up or stays.
 */
export function defaultBound(targetMinor: number, bound: 'min' | 'max', target: CurrencyInfo, defaultDigits: number): number {
  const converted = (amount: number) => {
    try {
      return convertMinor(amount, defaultDigits, target.minorUnits, target.exchangeRate);
    } catch {
      return Number.POSITIVE_INFINITY; // beyond safe integers: above any bound
    }
  };
  // The least amount whose conversion passes `targetMinor` (>= for min, > for max), by bisection.
  const passes = (amount: number) => (bound === 'min' ? converted(amount) >= targetMinor : converted(amount) > targetMinor);
  let low = 0;
  let high = 10 ** 15;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (passes(middle)) high = middle;
    else low = middle + 1;
  }
  return bound === 'min' ? low : low - 1;
}
