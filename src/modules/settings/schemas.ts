// The shapes of the settings module that other areas use (its *.schemas.ts), apart from its behaviour (index.ts), so a
// shape loads no service (test/module-boundaries.node.test.ts). Loaded on use. Written by scripts/module-faces.ts: rerun it.

export { CreateCurrencyBody, CurrencyCode, UpdateCurrencyBody } from './currencies.schemas';
export type { Currency } from './currencies.schemas';
export { UpdateSettingsBody } from './settings.schemas';
export { BUILT_IN_TAX_CLASSES, CreateTaxClassBody, UpdateTaxClassBody } from './tax-classes.schemas';
export type { TaxClass } from './tax-classes.schemas';
export { CreateTaxRateBody, TaxCountry, UpdateTaxRateBody } from './taxes.schemas';
export type { TaxRate } from './taxes.schemas';
