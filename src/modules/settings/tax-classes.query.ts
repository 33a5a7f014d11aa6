import { taxClasses } from '../../db/schema';
import { defineListQuery, fieldTreeFromSchema, searchFilter } from '../../lib/query';
import { TaxClassSchema } from './tax-classes.schemas';

// A class's id is its code, so the code ends every order.
export const taxClassListQuery = defineListQuery({
  resource: 'taxClass',
  id: taxClasses.code,
  sortable: { code: taxClasses.code, name: taxClasses.name, createdAt: taxClasses.createdAt },
  defaultSort: [{ field: 'code', direction: 'asc' }],
  selectable: fieldTreeFromSchema(TaxClassSchema),
  filters: {
    q: searchFilter([taxClasses.code, taxClasses.name], 'Search in code and name, case-insensitive.'),
  },
});
