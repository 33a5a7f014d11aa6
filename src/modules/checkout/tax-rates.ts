import type { CurrencyRow, StoreSettingsRow, TaxRateRow } from '../../db/schema';
import type { PricingTax } from './pricing';

/** The class every product is in unless it names another, whose rate stands in for a class without one. */
export const STANDARD_TAX_CLASS = 'standard';
/** The class that is never taxed (exports, exempt goods): it needs no rates. */
export const ZERO_TAX_CLASS = 'zero';

/**
 * How an address is taxed, from the store's rates for its country (`rates`: the rows of the
 * address's country whose region is the address's or null). For each tax class, a rate for the
 * region beats one for the whole country; a class with neither pays the standard class's rate
 * there (a store that has not set a reduced rate for a country over-charges rather than under-);
 * the zero class pays 0. Shipping is taxed at the standard rate where that rate says
 * `shippingTaxable`. Prices include tax as the currency says, else as the store does.
 */
export function pricingTax(rates: readonly TaxRateRow[], settings: Pick<StoreSettingsRow, 'pricesIncludeTax'>, currency: Pick<CurrencyRow, 'pricesIncludeTax'>): PricingTax {
  const rowFor = (taxClass: string) => rates.find((r) => r.taxClass === taxClass && r.region !== null) ?? rates.find((r) => r.taxClass === taxClass && r.region === null);
  const standard = rowFor(STANDARD_TAX_CLASS);
  return {
    inclusive: currency.pricesIncludeTax ?? settings.pricesIncludeTax,
    rateFor: (taxClass) => (taxClass === ZERO_TAX_CLASS ? '0' : ((rowFor(taxClass) ?? standard)?.rate ?? null)),
    shippingRate: standard?.shippingTaxable ? standard.rate : null,
  };
}
