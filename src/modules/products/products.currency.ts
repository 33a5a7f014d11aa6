import { type SQL, sql } from 'drizzle-orm';
import { compiled } from '../../db/compiled';
import { currencies, products, type ProductRow, type ProductVariantRow, type RelatedVariant } from '../../db/schema';
import { convertMinor, type CurrencyInfo, type CurrencyTable, defaultBound, inCurrency } from '../checkout';
import { ApiError } from '../../lib/errors';
import { DEFAULT_MINOR_DIGITS, toMajor, toMajorOrNull } from '../../lib/money';
import type { ParsedListQuery } from '../../lib/query';
import { defaultCurrencyCode } from '../settings';
import { productListQuery } from './products.query';

/**
 * The currency a product read shows its prices in (`?currency=`, the store's default otherwise),
 * and the store's currencies, whose minor units its own prices per currency are shown in.
 */
export interface MoneyView {
  table: CurrencyTable;
  currency: CurrencyInfo;
  /** Minor-unit digits of the default currency, in which `price` and `compare_at_price` are kept. */
  defaultDigits: number;
}

/** Every currency of the store (a small table), the default marked: rides in a read's batch. */
export const currencyTableRead = compiled((db) =>
  db
    .select({
      code: currencies.code,
      minorUnits: currencies.minorUnits,
      exchangeRate: currencies.exchangeRate,
      enabled: currencies.enabled,
      isDefault: sql<number>`${currencies.code} = ${defaultCurrencyCode}`,
    })
    .from(currencies),
);

type CurrencyTableRows = Awaited<ReturnType<typeof currencyTableRead>>;

export function currencyTableOf(rows: CurrencyTableRows): CurrencyTable {
  const defaultRow = rows.find((r) => Boolean(r.isDefault));
  if (!defaultRow) throw new Error('the default currency is missing');
  return { defaultCode: defaultRow.code, byCode: new Map(rows.map((r) => [r.code, { code: r.code, minorUnits: r.minorUnits, exchangeRate: r.exchangeRate, enabled: r.enabled }])) };
}

/** Prices shown in `wanted` (an enabled currency; 422 on `currency` otherwise), or in the default currency. */
export function moneyView(table: CurrencyTable, wanted?: string): MoneyView {
  const defaultCurrency = table.byCode.get(table.defaultCode)!;
  const currency = wanted === undefined ? defaultCurrency : table.byCode.get(wanted);
  if (!currency?.enabled) {
    throw ApiError.validation([{ field: 'currency', problem: `'${wanted}' is not a currency this store sells in (GET /api/settings/currencies)`, code: 'not_found' }]);
  }
  return { table, currency, defaultDigits: defaultCurrency.minorUnits };
}

/** True when the view shows another currency than the default (whose amounts need converting). */
export const isForeign = (view: MoneyView) => view.currency.code !== view.table.defaultCode;

/**
 * A row's price and compare-at price in the view's currency, in its major units: its own price
 * there when set (the compare-at price with it), else both converted by exchange rate.
 */
export function shownPrice(row: Pick<ProductRow | ProductVariantRow | RelatedVariant, 'price' | 'compareAtPrice' | 'prices'>, view: MoneyView) {
  if (!isForeign(view)) return { price: toMajor(row.price), compareAtPrice: toMajorOrNull(row.compareAtPrice) };
  const own = row.prices?.[view.currency.code];
  const digits = view.currency.minorUnits;
  // Converted as a cart in that currency converts it.
  const inView = (amount: number | null) => (amount === null ? null : inCurrency(amount, { defaultMinorUnits: view.defaultDigits, currency: view.currency }));
  if (own) return { price: toMajor(own.amount, digits), compareAtPrice: toMajorOrNull(own.compareAt, digits) };
  return { price: toMajor(inView(row.price)!, digits), compareAtPrice: toMajorOrNull(inView(row.compareAtPrice), digits) };
}

/** What a product's price in a currency is chosen from: its variants as shown in that currency. */
type ShownVariant = { price: number; compareAtPrice: number | null; prices: readonly { currency: string }[] };

/**
 * A product's price and compare-at price in the view's currency, in its major units. When a variant
 * has its own price there, the product shows its cheapest variant's, own or converted: what a cart
 * in that currency charges for it (src/modules/checkout/quote.ts), and what a list filters and sorts
 * it by (priceInView). Otherwise, as before, its own price there or its price converted (shownPrice).
 * `variants` are shown in the same view (toVariant).
 */
export function shownProductPrice(row: Pick<ProductRow, 'price' | 'compareAtPrice' | 'prices'>, variants: readonly ShownVariant[], view: MoneyView) {
  if (!isForeign(view) || !variants.some((v) => v.prices.some((p) => p.currency === view.currency.code))) return shownPrice(row, view);
  const cheapest = variants.reduce((low, v) => (v.price < low.price ? v : low));
  return { price: cheapest.price, compareAtPrice: cheapest.compareAtPrice };
}

// ---------------------------------------------------------------------------------------------
// Lists in another currency than the default: `price_min`, `price_max` and `sort=price` read each
// product's price there as shownProductPrice shows it, from the product's row alone: its variants'
// own prices there are summed up in products.variant_prices (VariantPriceFloors, kept by triggers
// with `related`). No index holds that price, so such a list reads every product its other
// conditions leave (docs/performance.md), but no variant row.

/** The product's own amount in the view's currency (minor units), or NULL. */
const ownAmount = (view: MoneyView) => sql`json_extract(${products.prices}, ${`$.${view.currency.code}.amount`})`;

/** Of the product's variants: the lowest own amount in the view's currency (NULL when none has one), or the lowest default price of those without. */
const variantFloor = (view: MoneyView, key: 'own' | 'toConvert') => sql`json_extract(${products.variantPrices}, ${`$.${view.currency.code}.${key}`})`;

/**
 * The product's price in the view's currency, for sorting: with a variant's own price there, the
 * lowest of the variants' own and converted prices; else its own price, else its default price
 * converted (a float product rounded, as the amount shown is; at exact halves the float may round
 * the other way, which can swap two products that show the same price).
 */
export function priceInView(view: MoneyView): SQL {
  const factor = Number(view.currency.exchangeRate) * 10 ** (view.currency.minorUnits - view.defaultDigits);
  const own = variantFloor(view, 'own');
  return sql`CASE WHEN ${own} IS NULL THEN coalesce(${ownAmount(view)}, round(${products.price} * ${factor}))
    ELSE min(${own}, coalesce(round(${variantFloor(view, 'toConvert')} * ${factor}), ${own})) END`;
}

/**
 * `price_min` / `price_max` in the view's currency, on the price priceInView sorts by: an own
 * amount against the bound, a default price against the bound converted back exactly
 * (defaultBound). The cheapest variant's price, min(own, converted), is at least the bound when
 * both are, at most it when either is. `minor` is the bound as the filter parsed it (minor units
 * with two decimals).
 */
export function priceBoundInView(view: MoneyView, bound: 'min' | 'max', minor: number): SQL {
  const target = convertMinor(minor, DEFAULT_MINOR_DIGITS, view.currency.minorUnits, '1');
  const compare = bound === 'min' ? sql`>=` : sql`<=`;
  const fallback = defaultBound(target, bound, view.currency, view.defaultDigits);
  const own = variantFloor(view, 'own');
  const toConvert = variantFloor(view, 'toConvert');
  const variants =
    bound === 'min' ? sql`(${own} >= ${target} AND coalesce(${toConvert} >= ${fallback}, 1))` : sql`(${own} <= ${target} OR coalesce(${toConvert} <= ${fallback}, 0))`;
  return sql`CASE WHEN ${own} IS NULL THEN coalesce(${ownAmount(view)} ${compare} ${target}, ${products.price} ${compare} ${fallback}) ELSE ${variants} END`;
}

/** The product list's query config with price sorted and filtered in the view's currency. */
export function listQueryIn(view: MoneyView): typeof productListQuery {
  const { filters, sortable } = productListQuery;
  return {
    ...productListQuery,
    sortable: { ...sortable, price: priceInView(view) },
    filters: {
      ...filters,
      price_min: { ...filters.price_min, where: (minor: number) => priceBoundInView(view, 'min', minor) },
      price_max: { ...filters.price_max, where: (minor: number) => priceBoundInView(view, 'max', minor) },
    },
  };
}

/** Whether a list filters or sorts on price. */
export function readsPrice(query: ParsedListQuery<typeof productListQuery.filters>): boolean {
  return query.filters.price_min !== undefined || query.filters.price_max !== undefined || query.sort.some((k) => k.field === 'price');
}
