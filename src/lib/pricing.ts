import type { CouponRow } from '../db/schema';
import { allocate, convertMinor, percentOf } from './rates';

/**
 * Totals of a cart or an order, computed on the server from catalogue prices (docs/api.md, Carts and orders): every
 * amount is integer minor units of the chosen currency, each line is rounded half-up on its own,
 * and totals are sums of rounded lines. Pure: the caller loads prices, coupon, tax rate and settings.
 */

export interface PriceableLine {
  /** The caller's handle for the line (a cart line id, an index). */
  key: string;
  productId: string;
  /** The product's categories and their ancestors, for coupons restricted to categories. */
  categoryIds: readonly string[];
  /** Minor units of the store's default currency. */
  unitPrice: number;
  /** The variant's own price in the pricing currency (minor units), when it has one: wins over converting `unitPrice`. */
  ownUnitPrice?: number;
  quantity: number;
}

export interface PricingCurrency {
  code: string;
  minorUnits: number;
  /** Units of this currency per unit of the default currency, as decimal text. */
  exchangeRate: string;
}

export interface PricingContext {
  /** Minor-unit digits of the default currency, in which catalogue prices and fixed amounts are kept. */
  defaultMinorUnits: number;
  currency: PricingCurrency;
  /** A coupon already found applicable (see coupon-rules), or null. */
  coupon: Pick<CouponRow, 'type' | 'value' | 'productIds' | 'categoryIds'> | null;
  /** The tax rate for the shipping address, or null (no address yet, or no rate for it). */
  tax: { rate: string; shippingTaxable: boolean } | null;
  /**
   * The shipping charge, in minor units of the pricing currency, of a cart whose subtotal after
   * discounts is `discountedSubtotal` (src/modules/shipping/shipping-choice.ts). Not asked for an empty cart.
   */
  shipping: (discountedSubtotal: number) => number;
}

export interface PricedLine {
  key: string;
  unitPrice: number;
  subtotal: number;
  discount: number;
  tax: number;
  total: number;
}

export interface PricedTotals {
  currency: string;
  lines: PricedLine[];
  subtotal: number;
  discountTotal: number;
  shippingTotal: number;
  taxTotal: number;
  total: number;
  /** Subtotal of the lines the coupon applies to (0 without a coupon). */
  eligibleSubtotal: number;
}

/** A default-currency amount (minor units) in the pricing currency. */
export function inCurrency(amountMinor: number, ctx: Pick<PricingContext, 'defaultMinorUnits' | 'currency'>): number {
  return convertMinor(amountMinor, ctx.defaultMinorUnits, ctx.currency.minorUnits, ctx.currency.exchangeRate);
}

/** True when the coupon discounts this line: unrestricted coupons apply to every line. */
export function couponApplies(coupon: Pick<CouponRow, 'productIds' | 'categoryIds'>, line: Pick<PriceableLine, 'productId' | 'categoryIds'>): boolean {
  if (coupon.productIds.length === 0 && coupon.categoryIds.length === 0) return true;
  return coupon.productIds.includes(line.productId) || line.categoryIds.some((id) => coupon.categoryIds.includes(id));
}

function discounts(lines: PriceableLine[], subtotals: number[], ctx: PricingContext): number[] {
  const coupon = ctx.coupon;
  if (!coupon) return lines.map(() => 0);
  const eligible = lines.map((line) => couponApplies(coupon, line));
  if (coupon.type === 'percentage') return subtotals.map((s, i) => (eligible[i] ? percentOf(s, coupon.value) : 0));
  const eligibleSubtotals = subtotals.map((s, i) => (eligible[i] ? s : 0));
  const cap = eligibleSubtotals.reduce((a, b) => a + b, 0);
  const amount = Math.min(inCurrency(Number(coupon.value), ctx), cap);
  return allocate(amount, eligibleSubtotals);
}

export function priceLines(lines: PriceableLine[], ctx: PricingContext): PricedTotals {
  const unitPrices = lines.map((line) => line.ownUnitPrice ?? inCurrency(line.unitPrice, ctx));
  const subtotals = lines.map((line, i) => unitPrices[i]! * line.quantity);
  const lineDiscounts = discounts(lines, subtotals, ctx);
  const lineTaxes = subtotals.map((s, i) => (ctx.tax ? percentOf(s - lineDiscounts[i]!, ctx.tax.rate) : 0));
  const priced = lines.map((line, i) => ({
    key: line.key,
    unitPrice: unitPrices[i]!,
    subtotal: subtotals[i]!,
    discount: lineDiscounts[i]!,
    tax: lineTaxes[i]!,
    total: subtotals[i]! - lineDiscounts[i]! + lineTaxes[i]!,
  }));
  const sum = (pick: (l: PricedLine) => number) => priced.reduce((a, l) => a + pick(l), 0);
  const subtotal = sum((l) => l.subtotal);
  const discountTotal = sum((l) => l.discount);
  const shippingTotal = lines.length === 0 ? 0 : ctx.shipping(subtotal - discountTotal);
  const shippingTax = ctx.tax?.shippingTaxable ? percentOf(shippingTotal, ctx.tax.rate) : 0;
  const taxTotal = sum((l) => l.tax) + shippingTax;
  const eligibleSubtotal = ctx.coupon ? priced.filter((_, i) => couponApplies(ctx.coupon!, lines[i]!)).reduce((a, l) => a + l.subtotal, 0) : 0;
  return {
    currency: ctx.currency.code,
    lines: priced,
    subtotal,
    discountTotal,
    shippingTotal,
    taxTotal,
    total: subtotal - discountTotal + shippingTotal + taxTotal,
    eligibleSubtotal,
  };
}
