import { z } from '@hono/zod-openapi';
import { USER_STATUSES, users } from '../../db/schema';
import { createdAfterFilter, createdBeforeFilter, defineListQuery, enumFilter, fieldTreeFromSchema, searchFilter } from '../../lib/query';
import type { FilterSpec } from '../../lib/query';
import { inGroup } from './group-membership';
import { CustomerSchema } from './customers.schemas';

const groupFilter: FilterSpec<string | undefined> = {
  schema: z.string().min(1).max(200).optional().openapi({ description: 'Only customers in this customer group (its id).' }) as z.ZodType<string | undefined, string | undefined>,
  where: (groupId) => inGroup(users.id, groupId),
};

export const customerListQuery = defineListQuery({
  resource: 'customer',
  id: users.id,
  sortable: { createdAt: users.createdAt, name: users.name, email: users.email, id: users.id },
  defaultSort: [{ field: 'createdAt', direction: 'desc' }],
  selectable: fieldTreeFromSchema(CustomerSchema),
  filters: {
    q: searchFilter([users.name, users.email], 'Search in name and email, case-insensitive.'),
    status: enumFilter(users.status, USER_STATUSES, 'Account status.'),
    group: groupFilter,
    created_after: createdAfterFilter(users.createdAt),
    created_before: createdBeforeFilter(users.createdAt),
  },
});
