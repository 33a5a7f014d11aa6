// The public face of the settings module: what other areas use of it, and nothing else (test/module-boundaries.node.test.ts).
// Loaded on use, never at the Worker's startup (startup.ts serves that). Written by scripts/module-faces.ts: rerun it.

export { currencyListQuery } from './currencies.query';
export { currencyRoutes } from './currencies.routes';
export * as currenciesService from './currencies.service';
export { listCurrencies } from './currencies.service';
export { currencyDigitsSql, currencyEntries, entriesOf, getStoreCurrencies, minorOf, storedEntries } from './currency-amounts';
export type { StoreCurrencies, ToMinor } from './currency-amounts';
export * as settingsRoutes from './settings.routes';
export * as settingsService from './settings.service';
export { getSettings, readEdgeSettings } from './settings.service';
export { STORE_ID, amountProblem, defaultCurrencyCode, defaultMinorUnits, getStoreCurrency } from './store-currency';
export type { StoreCurrency } from './store-currency';
export { taxClassListQuery } from './tax-classes.query';
export { taxClassRoutes } from './tax-classes.routes';
export * as taxClassesService from './tax-classes.service';
export { taxRateListQuery } from './taxes.query';
export { taxRateRoutes } from './taxes.routes';
export * as taxesService from './taxes.service';
