import { crudRoutes } from '../../lib/crud-routes';
import { currencyListQuery } from './currencies.query';
import { CreateCurrencyBody, CurrencyParams, CurrencySchema, UpdateCurrencyBody } from './currencies.schemas';

const publicNote = 'Public: without a credential (or without `settings:read`/`settings:write`) only enabled currencies exist.';

export const currencyRoutes = crudRoutes({
  path: '/settings/currencies',
  tag: 'Currencies',
  sdk: { group: 'currencies', singular: 'Currency', plural: 'Currencies' },
  noun: 'currency',
  nouns: 'currencies',
  schema: CurrencySchema,
  createBody: CreateCurrencyBody,
  updateBody: UpdateCurrencyBody,
  listQuery: currencyListQuery,
  resource: 'settings',
  itemParams: CurrencyParams,
  slug: null,
  summaries: { create: 'Add a currency' },
  notes: {
    list: `${publicNote} Staff see every currency and may filter on \`enabled\`. Ties end on \`code\`, the id of a currency.`,
    get: `The code in any case. ${publicNote}`,
    create: 'A duplicate code is 409.',
    update: 'The default currency cannot be disabled, its exchange rate is always 1 and its minor units cannot change, since stored amounts are its minor units (409).',
    delete: 'Refused with 409 for the default currency and for a currency that carts or orders are in (disable it instead).',
  },
});
