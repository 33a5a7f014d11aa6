import { convertMinor, percentOf, taxInside } from './rates';

/**
 * Totals of a cart or an order, computed on the server from catalogue prices (docs/api.md, Carts and orders): every
 * amount is integer minor units of the chosen currency, each line is rounded half-up on its own,
 * and totals are sums of rounded lines. Pure: the caller loads prices, tax rates and settings, and gives the discounts the promotions decided.
 *
 * Tax (docs/api.md, Taxes) is reckoned per line on what the line costs after its discount, and on
 * shipping, by one rule: with prices that include tax the shopper pays that amount and the tax is
 * the part of it at the line's rate (amount × rate / (100 + rate)); otherwise it is added on top
 * (amount × rate / 100). Each line's tax is rounded half-up in the currency's minor unit.
 */

export interface PriceableLine {
  /** The caller's handle for the line (a cart line id, an index). */
  key: string;
  productId: string;
  /** The product's categories and their ancestors (promotions limited to categories match on them). */
  categoryIds: readonly string[];
  /** Minor units of the store's default currency. */
  unitPrice: number;
  /** The variant's own price in the pricing currency (minor units), when it has one: wins over converting `unitPrice`. */
  ownUnitPrice?: number;
  quantity: number;
  /** The product's tax class (tax_classes.code). */
  taxClass: string;
}

export interface PricingCurrency {
  code: string;
  minorUnits: number;
  /** Units of this currency per unit of the default currency, as decimal text. */
  exchangeRate: string;
}

/** How the shipping address is taxed (src/modules/checkout/tax-rates.ts resolves it from the store's rates). */
export interface PricingTax {
  /** Prices include tax: the shopper pays them and the tax is inside; otherwise tax is added on top. */
  inclusive: boolean;
  /** The percent (decimal text) lines of a tax class are taxed at; null: no tax applies there. */
  rateFor: (taxClass: string) => string | null;
  /** The percent shipping is taxed at; null: shipping is not taxed there. */
  shippingRate: string | null;
}

export interface PricingContext {
  /** Minor-unit digits of the default currency, in which catalogue prices and fixed amounts are kept. */
  defaultMinorUnits: number;
  currency: PricingCurrency;
  /**
   * Discounts decided by the promotion engine (src/modules/promotions, coupons among them): each
   * line's by its key, and what is taken off the shipping price. Absent: none.
   */
  discounts?: { byKey: (key: string) => number; shipping: number };
  tax: PricingTax;
  /**
   * The shipping charge, in minor units of the pricing currency, of a cart whose subtotal after
   * discounts is `discountedSubtotal` (src/modules/checkout/shipping-choice.ts). Not asked for an empty cart.
   */
  shipping: (discountedSubtotal: number) => number;
}

export interface PricedLine {
  key: string;
  unitPrice: number;
  subtotal: number;
  discount: number;
  /** The percent the line was taxed at (decimal text); null: no tax applied. */
  taxRate: string | null;
  taxClass: string;
  tax: number;
  /** subtotal - discount, plus tax when it is added on top. */
  total: number;
}

export interface PricedTotals {
  currency: string;
  lines: PricedLine[];
  pricesIncludeTax: boolean;
  subtotal: number;
  discountTotal: number;
  shippingTotal: number;
  /** The part of taxTotal charged on shipping, and its percent (null: shipping untaxed). */
  shippingTax: number;
  shippingTaxRate: string | null;
  taxTotal: number;
  /** subtotal - discountTotal + shippingTotal, plus taxTotal when tax is added on top. */
  total: number;
}

/** A default-currency amount (minor units) in the pricing currency. */
export function inCurrency(amountMinor: number, ctx: Pick<PricingContext, 'defaultMinorUnits' | 'currency'>): number {
  return convertMinor(amountMinor, ctx.defaultMinorUnits, ctx.currency.minorUnits, ctx.currency.exchangeRate);
}

/** The tax on `amount` at `rate` (null: none), inside it or on top of it. */
export function taxOn(amount: number, rate: string | null, inclusive: boolean): number {
  if (rate === null) return 0;
  return inclusive ? taxInside(amount, rate) : percentOf(amount, rate);
}

export function priceLines(lines: PriceableLine[], ctx: PricingContext): PricedTotals {
  const { inclusive } = ctx.tax;
  const added = (tax: number) => (inclusive ? 0 : tax);
  const unitPrices = lines.map((line) => line.ownUnitPrice ?? inCurrency(line.unitPrice, ctx));
  const subtotals = lines.map((line, i) => unitPrices[i]! * line.quantity);
  const lineDiscounts = lines.map((line) => ctx.discounts?.byKey(line.key) ?? 0);
  const priced = lines.map((line, i): PricedLine => {
    const charged = subtotals[i]! - lineDiscounts[i]!;
    const taxRate = ctx.tax.rateFor(line.taxClass);
    const tax = taxOn(charged, taxRate, inclusive);
    return { key: line.key, unitPrice: unitPrices[i]!, subtotal: subtotals[i]!, discount: lineDiscounts[i]!, taxRate, taxClass: line.taxClass, tax, total: charged + added(tax) };
  });
  const sum = (pick: (l: PricedLine) => number) => priced.reduce((a, l) => a + pick(l), 0);
  const subtotal = sum((l) => l.subtotal);
  const discountTotal = sum((l) => l.discount);
  const shippingTotal = lines.length === 0 ? 0 : ctx.shipping(subtotal - discountTotal) - (ctx.discounts?.shipping ?? 0);
  const shippingTaxRate = shippingTotal > 0 ? ctx.tax.shippingRate : null;
  const shippingTax = taxOn(shippingTotal, shippingTaxRate, inclusive);
  const taxTotal = sum((l) => l.tax) + shippingTax;
  return {
    currency: ctx.currency.code,
    lines: priced,
    pricesIncludeTax: inclusive,
    subtotal,
    discountTotal,
    shippingTotal,
    shippingTax,
    shippingTaxRate,
    taxTotal,
    total: subtotal - discountTotal + shippingTotal + added(taxTotal),
  };
}
