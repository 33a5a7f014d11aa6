import type { ShippingMethodRow, ShippingRate } from '../../db/schema';

/**
 * What a shipping method charges a cart (docs/api.md, Shipping). Pure: amounts of the rate are minor
 * units of the default currency, and `convert` turns one into the cart's currency (inCurrency in
 * src/modules/checkout/pricing.ts); the cart's subtotal after discounts is already in the cart's currency. A rate
 * the shop set for the cart's currency (`currencyRates`) is already in it, and is used instead.
 */

export interface RatedCart {
  /** Sum of the lines' weights (variant weight x quantity) in the store's weightUnit. */
  weight: number;
  /** Subtotal after discounts, minor units of the cart's currency. */
  discountedSubtotal: number;
}

/** Weights are decimals of the store's unit: summed, they are compared at this many decimals, so 3 x 0.1 fits a band up to 0.3. */
const WEIGHT_DECIMALS = 6;

/** The sum of `weight x quantity` over the lines (a variant without weight weighs 0). */
export function cartWeight(lines: { weight: number | null; quantity: number }[]): number {
  const total = lines.reduce((sum, line) => sum + (line.weight ?? 0) * line.quantity, 0);
  return Number(total.toFixed(WEIGHT_DECIMALS));
}

/** The method's price for a cart in `currency`: by the shop's own rate and threshold for it, else by the default ones converted. */
export function methodPriceIn(
  method: Pick<ShippingMethodRow, 'rate' | 'freeAbove' | 'currencyRates'>,
  currency: string,
  cart: RatedCart,
  convert: (defaultMinor: number) => number,
): number | null {
  const own = method.currencyRates[currency];
  return own ? methodPrice(own.rate, own.freeAbove, cart, (amount) => amount) : methodPrice(method.rate, method.freeAbove, cart, convert);
}

/**
 * The method's price for the cart in minor units of the cart's currency, or null when the method does
 * not serve it: heavier than its last closed weight band, or a subtotal below its first price band.
 * At or above `freeAbove` it costs 0 (when it serves the cart at all).
 */
export function methodPrice(rate: ShippingRate, freeAbove: number | null, cart: RatedCart, convert: (defaultMinor: number) => number): number | null {
  const amount = rateAmount(rate, cart, convert);
  if (amount === null) return null;
  return freeAbove !== null && cart.discountedSubtotal >= convert(freeAbove) ? 0 : amount;
}

function rateAmount(rate: ShippingRate, cart: RatedCart, convert: (defaultMinor: number) => number): number | null {
  switch (rate.type) {
    case 'flat':
      return convert(rate.amount);
    case 'weight': {
      const band = rate.bands.find((b) => b.upTo === null || cart.weight <= b.upTo);
      return band ? convert(band.amount) : null;
    }
    case 'price': {
      const band = [...rate.bands].reverse().find((b) => cart.discountedSubtotal >= convert(b.from));
      return band ? convert(band.amount) : null;
    }
  }
}
