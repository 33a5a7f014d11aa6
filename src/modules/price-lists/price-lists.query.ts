import { priceLists, PRICE_LIST_STATUSES } from '../../db/schema';
import { defineListQuery, enumFilter, exactFilter, fieldTreeFromSchema, searchFilter } from '../../lib/query';
import { PriceListSchema } from './price-lists.schemas';

export const priceListListQuery = defineListQuery({
  resource: 'priceList',
  id: priceLists.id,
  sortable: { name: priceLists.name, createdAt: priceLists.createdAt, startsAt: priceLists.startsAt, id: priceLists.id },
  defaultSort: [{ field: 'createdAt', direction: 'desc' }],
  selectable: fieldTreeFromSchema(PriceListSchema),
  filters: {
    q: searchFilter([priceLists.name, priceLists.description], 'Search in name and description, case-insensitive.'),
    status: enumFilter(priceLists.status, PRICE_LIST_STATUSES, 'List status.'),
    customer_group: exactFilter(priceLists.customerGroupId, 'Only lists for this customer group (its id).'),
    currency: exactFilter(priceLists.currency, 'Only lists in this currency (ISO 4217 code, upper case).'),
  },
});
