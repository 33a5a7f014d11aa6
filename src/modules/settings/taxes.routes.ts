import { crudRoutes } from '../../lib/crud-routes';
import { taxRateListQuery } from './taxes.query';
import { CreateTaxRateBody, TaxRateSchema, UpdateTaxRateBody } from './taxes.schemas';

const placeNote = 'One rate per country and region (a rate without region covers the rest of the country); a second one for the same place is 409.';
const keptNote = 'Orders already placed keep the tax they were charged.';

export const taxRateRoutes = crudRoutes({
  path: '/settings/taxes',
  tag: 'Tax rates',
  sdk: { group: 'taxRates', singular: 'TaxRate', plural: 'TaxRates' },
  noun: 'tax rate',
  nouns: 'tax rates',
  schema: TaxRateSchema,
  createBody: CreateTaxRateBody,
  updateBody: UpdateTaxRateBody,
  listQuery: taxRateListQuery,
  resource: 'settings',
  reads: 'permission',
  conflicts: ['create', 'update'],
  slug: null,
  notes: { create: placeNote, update: `${placeNote} ${keptNote}`, delete: keptNote },
});
