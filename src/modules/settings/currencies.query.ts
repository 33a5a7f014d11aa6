import { currencies } from '../../db/schema';
import { booleanFilter, defineListQuery, fieldTreeFromSchema, searchFilter } from '../../lib/query';
import { CurrencySchema } from './currencies.schemas';

// A currency's id is its code, so the code ends every order.
export const currencyListQuery = defineListQuery({
  resource: 'currency',
  id: currencies.code,
  sortable: { code: currencies.code, name: currencies.name },
  defaultSort: [{ field: 'code', direction: 'asc' }],
  selectable: fieldTreeFromSchema(CurrencySchema),
  filters: {
    enabled: booleanFilter(currencies.enabled, 'Enabled or disabled currencies. Public callers see only enabled ones whatever this says.'),
    q: searchFilter([currencies.code, currencies.name], 'Search in code and name, case-insensitive.'),
  },
});
