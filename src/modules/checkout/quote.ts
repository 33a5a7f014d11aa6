import { and, count, eq, isNull, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { compiled, type Slot } from '../../db/compiled';
import { inJson } from '../../db/json-rows';
import {
  categories,
  customerGroupMembers,
  type CurrencyRow,
  currencies,
  type PostalAddress,
  productCategories,
  products,
  productVariants,
  type PromotionRow,
  promotions,
  promotionUsages,
  quoteVersion,
  shippingMethods,
  shippingZones,
  type StoreSettingsRow,
  storeSettings,
  type TaxRateRow,
  taxRates,
} from '../../db/schema';
import { ApiError, detailOf, type FieldProblem } from '../../lib/errors';
import { inCurrency, type PricedTotals, priceLines, type PricingContext } from './pricing';
import { type Shipping, type ShippingInputs, shippingFor } from './shipping-choice';
import { cartWeight } from './shipping-rates';
import { pricingTax } from './tax-rates';
import { type CustomerPrice, customerIdOfKey, customerPricesRead, listedUnitPrice, ownOrListed } from './customer-prices';
import { notApplicableError, promotionsOfQuote } from './quote-promotions';
import { applyPromotions } from './promotion-engine';
import type { AppliedPromotion, LineDiscount } from './promotion-types';

/**
 * Prices a list of variants and quantities as the store sells them now: catalogue prices (a customer's
 * price-list prices where lower, src/modules/checkout/customer-prices.ts), the
 * currency's rate, the promotions (coupons among them: docs/promotions.md), the tax rates of the shipping address and the shipping method that serves it.
 * Carts show this as their totals; orders are placed at exactly these numbers. Everything is read
 * in one D1 batch (the lines' categories too, for promotions limited to some), with the
 * `quote_version` those reads are current at, so an order can price from inputs this isolate kept
 * (src/modules/checkout/quote-inputs.ts) and write only if they are still current.
 */

/** Lines per cart or order: keeps every `IN (...)` well inside D1's 100 bound parameters. */
export const MAX_LINES = 50;

export interface QuoteRequest {
  /** ISO 4217 code of an enabled currency; the store's default when absent. */
  currency?: string | null;
  lines: { variantId: string; quantity: number; key?: string }[];
  couponCode?: string | null;
  /** Who would use the code (a customer id, or `email:<address>` for a guest), for per-customer limits. */
  customerKey?: string | null;
  shippingAddress?: PostalAddress | null;
  /** The shipping method chosen; none: the cheapest that serves the address. */
  shippingMethodId?: string | null;
  /** An order: refuse (SHIPPING_UNAVAILABLE) an address no method serves, or a chosen method that does not serve it. Carts show them instead. */
  requireShipping?: boolean;
  now?: Date;
  /** The JSON field the lines came from, for error details (`lines`, `items`). */
  linesField?: string;
  /** Ship at no charge (an exchange's new order): the method is still chosen for the address, its price is not charged. */
  shippingWaived?: boolean;
}

/** A variant as a quote reads it. */
export type QuoteVariant = Rows<typeof variantsByIds>[number];

/** Everything a quote is priced from, as read at `version` of quote_version. */
export interface QuoteInputs {
  version: number;
  variants: QuoteVariant[];
  settings: StoreSettingsRow;
  currencies: CurrencyRow[];
  /** The tax rates of the shipping address's country for its region or the whole country (none without an address). */
  taxRates: TaxRateRow[];
  /** Every shipping zone and method (small tables, read whole). */
  shipping: ShippingInputs;
  /** The price-list prices of the lines' variants for the customer (none for a guest). */
  customerPrices: CustomerPrice[];
  /** By product of the variants: its categories and their ancestors (every product has an entry). */
  categoryIds: Record<string, string[]>;
  /** The active automatic promotions, and the one the code names if any (a coupon too; active or not, for a coupon's answer). */
  promotions: PromotionRow[];
  /** The customer's groups (none for a guest), for promotions limited to groups. */
  customerGroupIds: string[];
  /** How often the customer used each active promotion with a per-customer limit (absent: never). */
  promotionUses: { promotionId: string; n: number }[];
}

export interface QuotedLine {
  key: string;
  variantId: string;
  productId: string;
  vendorId: string | null;
  name: string;
  sku: string | null;
  options: Record<string, string>;
  quantity: number;
  /** Units in stock when read (orders reserve atomically; this is for messages and carts). */
  stock: number;
  unitPrice: number;
  subtotal: number;
  discount: number;
  taxRate: string | null;
  taxClass: string;
  tax: number;
  total: number;
  /** What each promotion (or the coupon) took off the line, minor units; they add up to `discount`. */
  promotions: LineDiscount[];
}

export interface Quote {
  currency: CurrencyRow;
  settings: StoreSettingsRow;
  /** The shipping options for the address and the one the totals charge. */
  shipping: Shipping;
  totals: Omit<PricedTotals, 'lines'>;
  lines: QuotedLine[];
  /** The promotions applied (the code's among them, a coupon's too), in the order applied, each with all it took off (lines and shipping). */
  promotions: AppliedPromotion[];
}

// D1 batches return rows keyed by column name, so a join must not select two columns of one name.
const variantColumns = {
  variantId: productVariants.id,
  productId: productVariants.productId,
  vendorId: products.vendorId,
  brandId: products.brandId,
  productName: sql<string>`${products.name}`.as('product_name'),
  productStatus: products.status,
  variantName: productVariants.name,
  sku: productVariants.sku,
  options: productVariants.options,
  price: productVariants.price,
  taxClass: products.taxClass,
  prices: productVariants.prices,
  weight: productVariants.weight,
  stock: productVariants.stock,
};

/** The tax rates that may apply to an address, of every class: its region's and its country's (tax-rates.ts picks). */
const taxRatesFor = compiled((db, p: Slot<'country' | 'region'>) =>
  db
    .select()
    .from(taxRates)
    .where(and(eq(taxRates.country, p('country')), or(isNull(taxRates.region), eq(taxRates.region, p('region'))))),
);

/** What a compiled read resolves to. */
type Rows<Read extends (...args: never[]) => unknown> = Awaited<ReturnType<Read>>;

// The other reads of a quote, built once per isolate (src/db/compiled.ts).
const variantsByIds = compiled((db, p: Slot<'ids'>) =>
  db
    .select(variantColumns)
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(inJson(productVariants.id, p('ids'))),
);
const currentQuoteVersion = compiled((db) => db.select({ version: quoteVersion.version }).from(quoteVersion).where(eq(quoteVersion.id, 1)));
const storeSettingsRow = compiled((db) => db.select().from(storeSettings).where(eq(storeSettings.id, 'store')));
const allCurrencies = compiled((db) => db.select().from(currencies));
const allShippingZones = compiled((db) => db.select().from(shippingZones));
const allShippingMethods = compiled((db) => db.select().from(shippingMethods));
/** The active promotions without a code, and the one with `code` ('' for none) active or not: an inactive coupon has its own answer. */
const activePromotions = compiled((db, p: Slot<'code'>) =>
  db
    .select()
    .from(promotions)
    .where(or(and(eq(promotions.active, true), isNull(promotions.code)), eq(promotions.code, p('code')))),
);
/** How often a customer used each active promotion that limits uses per customer. */
const promotionUsesBy = compiled((db, p: Slot<'customerKey'>) =>
  db
    .select({ promotionId: promotionUsages.promotionId, n: count() })
    .from(promotionUsages)
    .where(
      and(
        sql`${promotionUsages.promotionId} IN (SELECT ${promotions.id} FROM ${promotions} WHERE ${promotions.active} = 1 AND ${promotions.perCustomerLimit} IS NOT NULL)`,
        eq(promotionUsages.customerKey, p('customerKey')),
      ),
    )
    .groupBy(promotionUsages.promotionId),
);
const groupsOf = compiled((db, p: Slot<'customerId'>) =>
  db
    .select({ groupId: customerGroupMembers.groupId })
    .from(customerGroupMembers)
    .where(eq(customerGroupMembers.customerId, p('customerId'))),
);

/** The categories, and all their ancestors, of the products of the variants in `ids` (a JSON array), for promotions restricted to categories. */
const categoryLineageOf = (db: Database, ids: string) =>
  db.select({ product_id: sql<string>`product_id`, category_id: sql<string>`category_id` }).from(sql`(WITH RECURSIVE lineage(product_id, category_id) AS (
      SELECT ${productCategories.productId}, ${productCategories.categoryId} FROM ${productCategories}
      WHERE ${productCategories.productId} IN (SELECT ${productVariants.productId} FROM ${productVariants} WHERE ${inJson(productVariants.id, ids)})
      UNION SELECT lineage.product_id, c.parent_id FROM lineage JOIN ${categories} c ON c.id = lineage.category_id WHERE c.parent_id IS NOT NULL
    ) SELECT product_id, category_id FROM lineage) AS ${sql.identifier('lineage')}`);

/** Each product's categories and their ancestors, by product; every product of `variants` has an entry (maybe empty). */
function lineageByProduct(variants: readonly QuoteVariant[], rows: readonly { product_id: string; category_id: string }[]): Record<string, string[]> {
  const byProduct: Record<string, string[]> = Object.fromEntries(variants.map((v) => [v.productId, [] as string[]]));
  for (const row of rows) byProduct[row.product_id]?.push(row.category_id);
  return byProduct;
}

export async function quote(db: Database, request: QuoteRequest): Promise<Quote> {
  return quoteFrom(request, await readQuoteInputs(db, request));
}

/** Reads what `request` is priced from, in one D1 batch. */
export async function readQuoteInputs(db: Database, request: QuoteRequest): Promise<QuoteInputs> {
  const variantIds = [...new Set(request.lines.map((l) => l.variantId))];
  const code = couponCodeOf(request);

  // Tax reads only when there is an address to read them for.
  const { country, region } = taxRegionOf(request);
  const customerId = customerIdOfKey(request.customerKey);
  const optional = [
    ...(country ? [taxRatesFor(db, { country, region })] : []),
    ...(customerId ? [customerPricesRead(db, { customerId, ids: JSON.stringify(variantIds) }), groupsOf(db, { customerId })] : []),
    ...(request.customerKey ? [promotionUsesBy(db, { customerKey: request.customerKey })] : []),
  ];
  const [versionRows, variantRows, settingsRows, currencyRows, zoneRows, methodRows, promotionRows, lineageRows, ...rest] = (await db.batch([
    currentQuoteVersion(db, {}),
    variantsByIds(db, { ids: JSON.stringify(variantIds) }),
    storeSettingsRow(db, {}),
    allCurrencies(db, {}),
    allShippingZones(db, {}),
    allShippingMethods(db, {}),
    activePromotions(db, { code }),
    categoryLineageOf(db, JSON.stringify(variantIds)),
    ...optional,
  ] as never)) as [
    Rows<typeof currentQuoteVersion>,
    Rows<typeof variantsByIds>,
    Rows<typeof storeSettingsRow>,
    Rows<typeof allCurrencies>,
    Rows<typeof allShippingZones>,
    Rows<typeof allShippingMethods>,
    Rows<typeof activePromotions>,
    { product_id: string; category_id: string }[],
    ...unknown[],
  ];
  const promotionUses = (request.customerKey ? rest.pop() : []) as Rows<typeof promotionUsesBy>;
  const groupRows = (customerId ? rest.pop() : []) as Rows<typeof groupsOf>;
  const customerPrices = (customerId ? rest.pop() : []) as CustomerPrice[];
  const taxRows = (country ? rest.shift() : []) as Rows<typeof taxRatesFor>;
  const settings = settingsRows[0];
  if (!settings) throw new Error('store_settings row is missing (migration 0005)');
  return {
    version: versionRows[0]?.version ?? 0,
    variants: variantRows,
    settings,
    currencies: currencyRows,
    taxRates: taxRows,
    shipping: { zones: zoneRows, methods: methodRows },
    customerPrices,
    promotions: promotionRows,
    categoryIds: lineageByProduct(variantRows, lineageRows),
    customerGroupIds: groupRows.map((r) => r.groupId),
    promotionUses,
  };
}

/** The code a quote applied (its promotion's, a coupon's too; null: none). */
export const appliedCode = (q: Pick<Quote, 'promotions'>) => q.promotions.find((p) => p.code !== null)?.code ?? null;

/** The coupon code a request names, normalised ('' for none). */
export const couponCodeOf = (request: QuoteRequest) => request.couponCode?.trim().toUpperCase() ?? '';

/** The address a request's tax is looked up for ('' country: no address). */
export function taxRegionOf(request: QuoteRequest): { country: string; region: string } {
  return { country: request.shippingAddress?.country?.toUpperCase() ?? '', region: request.shippingAddress?.region?.toUpperCase() ?? '' };
}

/** Prices `request` from inputs read for it (readQuoteInputs) or kept (quote-inputs.ts); 422 for what cannot be sold. */
export function quoteFrom(request: QuoteRequest, inputs: QuoteInputs): Quote {
  const now = request.now ?? new Date();
  const field = request.linesField ?? 'lines';
  if (request.lines.length > MAX_LINES) throw ApiError.validation([{ field, problem: `must have at most ${MAX_LINES} lines`, code: 'too_big' }]);
  const code = couponCodeOf(request);
  const { settings, currencies: currencyRows, variants: variantRows } = inputs;
  const defaultCurrency = currencyRows.find((c) => c.code === settings.defaultCurrency);
  if (!defaultCurrency) throw new Error(`default currency ${settings.defaultCurrency} is missing`);
  const wanted = request.currency?.toUpperCase() ?? settings.defaultCurrency;
  const currency = currencyRows.find((c) => c.code === wanted);

  const errors: FieldProblem[] = [];
  if (!currency?.enabled) errors.push({ field: 'currency', problem: `'${wanted}' is not a currency this store sells in` });
  const byId = new Map(variantRows.map((v) => [v.variantId, v]));
  request.lines.forEach((line, i) => {
    const found = byId.get(line.variantId);
    if (!found) errors.push({ field: `${field}.${i}.variantId`, problem: `no variant '${line.variantId}'`, code: 'not_found' });
    else if (found.productStatus !== 'active') errors.push({ field: `${field}.${i}.variantId`, problem: `'${found.productName}' is not for sale` });
  });
  // An inactive promotion's code is unknown, as it always was; an inactive coupon's is refused below in its own words.
  const codeRow = code ? inputs.promotions.find((p) => p.code === code && (p.active || p.isCoupon)) : undefined;
  if (code && !codeRow) errors.push({ field: 'couponCode', problem: `no coupon '${code}'`, code: 'not_found' });
  if (errors.length) throw ApiError.validation(errors);

  const lines = request.lines.map((line, i) => ({ request: line, key: line.key ?? String(i), variant: byId.get(line.variantId)! }));
  const candidates = promotionsOfQuote(inputs);
  const convert = (amount: number) => inCurrency(amount, { defaultMinorUnits: defaultCurrency.minorUnits, currency: currency! });
  const weight = cartWeight(lines.map((l) => ({ weight: l.variant.weight, quantity: l.request.quantity })));
  const shippingAt = (discountedSubtotal: number) =>
    shippingFor(inputs.shipping, request.shippingAddress, { weight, discountedSubtotal, currency: currency!.code }, convert, request.shippingMethodId);
  const shippingPrice = (found: Shipping) => (request.shippingWaived ? 0 : (found.chosen?.price ?? 0));
  const priceable = lines.map((l) => ({
    key: l.key,
    productId: l.variant.productId,
    categoryIds: inputs.categoryIds[l.variant.productId] ?? [],
    unitPrice: l.variant.price,
    // The default currency's price is `price`; an own price for it would be a stale entry (the default changed).
    ownUnitPrice: ownOrListed(
      currency!.code === defaultCurrency.code ? undefined : l.variant.prices[currency!.code]?.amount,
      convert(l.variant.price),
      listedUnitPrice(inputs.customerPrices, l.variant.variantId, currency!.code, l.request.quantity, now),
    ),
    quantity: l.request.quantity,
    taxClass: l.variant.taxClass,
  }));

  // The promotions (the code's among them, a coupon's too) decide each line's discount and the shipping's (docs/promotions.md).
  const unitPrices = priceable.map((p) => p.ownUnitPrice ?? convert(p.unitPrice));
  const fullShipping = shippingAt(priceable.reduce((sum, p, i) => sum + unitPrices[i]! * p.quantity, 0)).chosen;
  const promoted = applyPromotions(
    {
      lines: priceable.map((p, i) => ({
        key: p.key,
        productId: p.productId,
        categoryIds: p.categoryIds,
        brandId: lines[i]!.variant.brandId,
        unitPrice: unitPrices[i]!,
        quantity: p.quantity,
      })),
      defaultMinorUnits: defaultCurrency.minorUnits,
      currency: currency!,
      customerGroupIds: inputs.customerGroupIds,
      now,
      shipping: fullShipping && { methodId: fullShipping.method.id, zoneId: fullShipping.method.zoneId, priceFor: (d) => shippingPrice(shippingAt(d)) },
      codes: code ? [code] : [],
    },
    candidates,
  );
  const discountsByKey = new Map(promoted.lines.map((line) => [line.key, line]));

  let shipping: Shipping | undefined;
  const pricing: PricingContext = {
    defaultMinorUnits: defaultCurrency.minorUnits,
    currency: currency!,
    discounts: { byKey: (key) => discountsByKey.get(key)!.discount, shipping: promoted.shippingDiscount },
    tax: pricingTax(inputs.taxRates, settings, currency!),
    shipping: (discountedSubtotal) => {
      shipping = shippingAt(discountedSubtotal);
      return shippingPrice(shipping);
    },
  };
  const { lines: priced, ...totals } = priceLines(priceable, pricing);
  // An empty cart is charged no shipping (priceLines does not ask); its options are still shown.
  shipping ??= shippingAt(0);
  if (request.requireShipping && shipping.problem) {
    const detail = detailOf(shipping.problem);
    throw new ApiError('SHIPPING_UNAVAILABLE', detail.message, { details: [detail] });
  }

  if (codeRow?.isCoupon && !codeRow.active) throw ApiError.conflict(`Coupon '${code}' is not active`, 'couponCode');
  const refused = promoted.notApplicable[0];
  if (refused) throw notApplicableError(refused, codeRow?.isCoupon ?? false);

  return {
    currency: currency!,
    settings,
    shipping,
    totals,
    promotions: promoted.applied,
    lines: lines.map((l, i) => ({
      variantId: l.variant.variantId,
      productId: l.variant.productId,
      vendorId: l.variant.vendorId,
      name: l.variant.variantName ? `${l.variant.productName} - ${l.variant.variantName}` : l.variant.productName,
      sku: l.variant.sku,
      options: l.variant.options,
      quantity: l.request.quantity,
      stock: l.variant.stock,
      ...priced[i]!,
      promotions: discountsByKey.get(l.key)!.promotions,
    })),
  };
}
