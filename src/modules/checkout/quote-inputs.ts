import type { CurrencyRow, PromotionRow, StoreSettingsRow, TaxRateRow } from '../../db/schema';
import { LruCache } from '../../lib/lru';
import { couponCodeOf, type QuoteInputs, type QuoteRequest, type QuoteVariant, taxRegionOf } from './quote';
import { keptPerIsolate } from '../../lib/isolate-state';
import type { ShippingInputs } from './shipping-choice';
import { customerIdOfKey } from './customer-prices';
import { KeptCustomerPrices } from './kept-customer-prices';

/**
 * Quote inputs this isolate read lately, all current at one `quote_version` (which changes with
 * anything a quote reads except stock): variants by id, their products' categories, the active automatic promotions, a customer's price-list prices and groups, the store settings, the currencies, the
 * shipping zones and methods, and the tax rates of addresses seen. An order whose inputs are all here is priced from them and written
 * in ONE D1 round trip, its batch guarded by that version (place-order.ts); if the version moved
 * on, the guard aborts the batch, the kept inputs are dropped and the order is read afresh.
 *
 * Orders with a code (a coupon's too) are always read: its uses change with every order that uses it.
 * Kept automatic promotions count as unused by the customer and their `timesUsed` may be behind:
 * the order's batch enforces both limits, and an order refused by one is read afresh (place-order.ts).
 */
interface Kept {
  version: number;
  settings: StoreSettingsRow;
  currencies: CurrencyRow[];
  shipping: ShippingInputs;
  variants: LruCache<QuoteVariant>;
  /** By `country|region`: the rates that may apply there (none: untaxed). */
  taxRates: Map<string, TaxRateRow[]>;
  /** Price-list prices of signed-in customers' variants. */
  customerPrices: KeptCustomerPrices;
  /** The active automatic promotions. */
  promotions: PromotionRow[];
  /** Signed-in customers' groups. */
  customerGroups: LruCache<string[]>;
  /** By product: its categories and their ancestors. */
  categoryIds: LruCache<string[]>;
}

const MAX_VARIANTS = 20_000;
const MAX_TAX_REGIONS = 1_000;
const MAX_CUSTOMERS = 5_000;
let kept: Kept | undefined;
keptPerIsolate(() => {
  kept = undefined;
});

const regionKey = (request: QuoteRequest) => {
  const { country, region } = taxRegionOf(request);
  return country ? `${country}|${region}` : undefined;
};

/** The inputs for `request` if every one of them is kept here, else undefined (read them). */
export function keptQuoteInputs(request: QuoteRequest): QuoteInputs | undefined {
  if (!kept || couponCodeOf(request)) return undefined;
  const region = regionKey(request);
  const taxRates = region === undefined ? [] : kept.taxRates.get(region);
  if (taxRates === undefined) return undefined;
  const variantIds = new Set(request.lines.map((l) => l.variantId));
  const customerId = customerIdOfKey(request.customerKey);
  const customerPrices = customerId ? kept.customerPrices.get(customerId, variantIds) : [];
  if (!customerPrices) return undefined;
  const customerGroupIds = customerId ? kept.customerGroups.get(customerId) : [];
  if (!customerGroupIds) return undefined;
  const variants: QuoteVariant[] = [];
  const categoryIds: Record<string, string[]> = {};
  for (const id of variantIds) {
    const variant = kept.variants.get(id);
    const lineage = variant && kept.categoryIds.get(variant.productId);
    if (!variant || !lineage) return undefined;
    variants.push(variant);
    categoryIds[variant.productId] = lineage;
  }
  return {
    version: kept.version,
    variants,
    settings: kept.settings,
    currencies: kept.currencies,
    shipping: kept.shipping,
    taxRates,
    customerPrices,
    promotions: kept.promotions,
    categoryIds,
    customerGroupIds,
    promotionUses: [],
  };
}

/** Keeps what was read for `request`; inputs of another version replace everything kept. */
export function keepQuoteInputs(request: QuoteRequest, inputs: QuoteInputs): void {
  if (kept?.version !== inputs.version) {
    kept = {
      version: inputs.version,
      settings: inputs.settings,
      currencies: inputs.currencies,
      shipping: inputs.shipping,
      variants: new LruCache({ maxEntries: MAX_VARIANTS, maxBytes: Number.MAX_SAFE_INTEGER }),
      taxRates: new Map(),
      customerPrices: new KeptCustomerPrices(),
      promotions: [],
      customerGroups: new LruCache({ maxEntries: MAX_CUSTOMERS, maxBytes: Number.MAX_SAFE_INTEGER }),
      categoryIds: new LruCache({ maxEntries: MAX_VARIANTS, maxBytes: Number.MAX_SAFE_INTEGER }),
    };
  }
  // A code's promotion is read with the automatic ones; only these are kept, as last read (their timesUsed the newest).
  kept.promotions = inputs.promotions.filter((p) => p.code === null);
  const customerId = customerIdOfKey(request.customerKey);
  if (customerId) {
    kept.customerPrices.keep(customerId, new Set(request.lines.map((l) => l.variantId)), inputs.customerPrices);
    kept.customerGroups.set(customerId, inputs.customerGroupIds, 1);
  }
  for (const variant of inputs.variants) {
    kept.variants.set(variant.variantId, variant, 1);
    kept.categoryIds.set(variant.productId, inputs.categoryIds[variant.productId] ?? [], 1);
  }
  const region = regionKey(request);
  if (region !== undefined) {
    if (kept.taxRates.size >= MAX_TAX_REGIONS) kept.taxRates.clear();
    kept.taxRates.set(region, inputs.taxRates);
  }
}

/** Drops the kept inputs if they are of `version` (a guarded write found it is no longer current). */
export function forgetQuoteInputs(version: number): void {
  if (kept?.version === version) kept = undefined;
}
