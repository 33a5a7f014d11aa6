// The public face of the checkout module: what other areas use of it, and nothing else (test/module-boundaries.node.test.ts).
// Loaded on use, never at the Worker's startup (startup.ts serves that). Written by scripts/module-faces.ts: rerun it.

export { CurrencyPricesInput, CurrencyPricesOutput, defaultBound, listedPrices, storedPrices } from './currency-prices';
export type { CurrencyInfo, CurrencyPriceInput, CurrencyPriceList, CurrencyTable } from './currency-prices';
export { customerPricesRead, listedUnitPrice } from './customer-prices';
export type { CustomerPrice } from './customer-prices';
export { inCurrency } from './pricing';
export { NOT_APPLICABLE_CONDITIONS } from './promotion-types';
export { forgetQuoteInputs, keepQuoteInputs, keptQuoteInputs } from './quote-inputs';
export { MAX_LINES, appliedCode, quote, quoteFrom, readQuoteInputs } from './quote';
export type { Quote, QuoteInputs, QuoteRequest } from './quote';
export { convertMinor, decimalText, roundHalfUp } from './rates';
export { normalPostcode } from './shipping-zones';
export { taxBreakdown } from './tax-breakdown';
