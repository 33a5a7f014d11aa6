import { USER_STATUSES, users, vendors } from '../../db/schema';
import { defineListQuery, enumFilter, exactFilter, fieldTreeFromSchema, idOrSlugFilter, searchFilter } from '../../lib/query';
import { UserSchema } from './users.schemas';

/** The staff users list at /api/users (customers are listed at /api/customers). */
export const staffUserListQuery = defineListQuery({
  resource: 'user',
  id: users.id,
  sortable: { createdAt: users.createdAt, name: users.name, email: users.email, id: users.id },
  defaultSort: [{ field: 'createdAt', direction: 'desc' }],
  selectable: fieldTreeFromSchema(UserSchema),
  filters: {
    role: exactFilter(users.roleId, 'Role id (admin, vendor or a custom role id).'),
    vendor: idOrSlugFilter(users.vendorId, { id: vendors.id, slug: vendors.slug, table: 'vendors' }, 'Vendor id or slug.'),
    status: enumFilter(users.status, USER_STATUSES, 'Account status.'),
    q: searchFilter([users.email, users.name], 'Search in email and name, case-insensitive.'),
  },
});
