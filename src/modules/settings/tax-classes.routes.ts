import { crudRoutes } from '../../lib/crud-routes';
import { taxClassListQuery } from './tax-classes.query';
import { CreateTaxClassBody, TaxClassParams, TaxClassSchema, UpdateTaxClassBody } from './tax-classes.schemas';

export const taxClassRoutes = crudRoutes({
  path: '/settings/tax-classes',
  tag: 'Tax classes',
  sdk: { group: 'taxClasses', singular: 'TaxClass', plural: 'TaxClasses' },
  noun: 'tax class',
  nouns: 'tax classes',
  schema: TaxClassSchema,
  createBody: CreateTaxClassBody,
  updateBody: UpdateTaxClassBody,
  listQuery: taxClassListQuery,
  resource: 'settings',
  reads: 'permission',
  itemParams: TaxClassParams,
  conflicts: ['create', 'delete'],
  slug: null,
  notes: {
    list: 'Ties end on `code`, the id of a class.',
    get: 'The code in any case.',
    create: "A duplicate code is 409. A new class pays the standard class's rate wherever it has no rate of its own (`POST /api/settings/taxes` with `taxClass`).",
    update: 'Only the name changes; the code cannot.',
    delete:
      'Deletes the class and every tax rate of it. Refused with 409 for `standard` and `zero`, which always exist, and for a class products use (move them to another class first). ' +
      'Orders already placed keep the tax they were charged.',
  },
});
