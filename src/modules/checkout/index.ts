/**
 * Checkout: how the store prices what it sells, from a cart's lines to an order's totals. It owns the
 * quote (quote.ts: one D1 batch reads every input, kept per isolate under quote_version by
 * quote-inputs.ts), a customer's price-list prices (customer-prices.ts), the promotions that apply
 * (promotion-engine.ts and the files it names), the shipping method's charge (shipping-choice.ts),
 * the tax of the shipping address (tax-rates.ts) and the pricing of lines in the chosen currency
 * (pricing.ts) with its exact rate arithmetic and the one rounding of money (rates.ts: roundHalfUp).
 * It imports only db/ and lib/; carts, orders, products, promotions, coupons, shipping, settings,
 * price lists and the ledger price through what this file exports. No routes of its own.
 */
export {
  CurrencyPricesInput,
  CurrencyPricesOutput,
  type CurrencyInfo,
  type CurrencyPriceInput,
  type CurrencyPriceList,
  type CurrencyTable,
  defaultBound,
  listedPrices,
  storedPrices,
} from './currency-prices';
export { type CustomerPrice, customerPricesRead, listedUnitPrice } from './customer-prices';
export { inCurrency, type PricedTotals, priceLines, type PricingContext } from './pricing';
export { NOT_APPLICABLE_CONDITIONS } from './promotion-types';
export { forgetQuoteInputs, keepQuoteInputs, keptQuoteInputs } from './quote-inputs';
export { appliedCode, MAX_LINES, type Quote, type QuoteInputs, type QuoteRequest, quote, quoteFrom, readQuoteInputs } from './quote';
export { allocate, convertMinor, decimalText, percentOf, roundHalfUp, taxInside } from './rates';
export { normalPostcode } from './shipping-zones';
export { taxBreakdown } from './tax-breakdown';
