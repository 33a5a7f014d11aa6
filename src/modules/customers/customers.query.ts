import { USER_STATUSES, users } from '../../db/schema';
import { createdAfterFilter, createdBeforeFilter, defineListQuery, enumFilter, fieldTreeFromSchema, searchFilter } from '../../lib/query';
import { CustomerSchema } from './customers.schemas';

export const customerListQuery = defineListQuery({
  resource: 'customer',
  id: users.id,
  sortable: { createdAt: users.createdAt, name: users.name, email: users.email, id: users.id },
  defaultSort: [{ field: 'createdAt', direction: 'desc' }],
  selectable: fieldTreeFromSchema(CustomerSchema),
  filters: {
    q: searchFilter([users.name, users.email], 'Search in name and email, case-insensitive.'),
    status: enumFilter(users.status, USER_STATUSES, 'Account status.'),
    created_after: createdAfterFilter(users.createdAt),
    created_before: createdBeforeFilter(users.createdAt),
  },
});
