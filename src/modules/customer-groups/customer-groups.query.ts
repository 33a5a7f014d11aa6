import { customerGroups } from '../../db/schema';
import { defineListQuery, fieldTreeFromSchema, searchFilter } from '../../lib/query';
import { CustomerGroupSchema } from './customer-groups.schemas';

export const customerGroupListQuery = defineListQuery({
  resource: 'customerGroup',
  id: customerGroups.id,
  sortable: { name: customerGroups.name, createdAt: customerGroups.createdAt, id: customerGroups.id },
  defaultSort: [{ field: 'name', direction: 'asc' }],
  selectable: fieldTreeFromSchema(CustomerGroupSchema),
  filters: {
    q: searchFilter([customerGroups.name, customerGroups.description], 'Search in name and description, case-insensitive.'),
  },
});
