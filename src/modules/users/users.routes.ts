import { GRANT_RULE } from '../../lib/access';
import { crudRoutes } from '../../lib/crud-routes';
import { staffUserListQuery } from './users.query';
import { CreateStaffUserBody, UpdateStaffUserBody, UserSchema } from './users.schemas';

export const userRoutes = crudRoutes({
  path: '/users',
  tag: 'Users',
  sdk: { group: 'users', singular: 'User', plural: 'Users' },
  noun: 'user',
  nouns: 'users',
  schema: UserSchema,
  createBody: CreateStaffUserBody,
  updateBody: UpdateStaffUserBody,
  listQuery: staffUserListQuery,
  resource: 'users',
  reads: 'permission',
  readsOwn: 'any signed-in staff user reads its own record. To a vendor user every other user is 404.',
  slug: null,
  summaries: {
    list: 'List admin and vendor users',
    create: 'Create an admin or vendor user',
    get: 'Get an admin or vendor user',
    update: 'Update an admin or vendor user',
    delete: 'Delete an admin or vendor user',
  },
  notes: {
    list: 'Every user whose role is not customer (customers are at `/api/customers`).',
    create: `\`role\` must exist and not be customer; role vendor needs \`vendorId\` of an existing vendor, other roles refuse it (422). Duplicate email is 409. ${GRANT_RULE}`,
    update: `Leaving role vendor drops the vendor. Disabling or demoting a user suspends the API keys it owns while it no longer covers them. 409 for disabling or demoting the last active admin, and for a user disabling itself. ${GRANT_RULE}`,
    delete: `The user's tokens stop working at once and the API keys it owns are revoked. 409 for the last active admin and for a user deleting itself. ${GRANT_RULE}`,
  },
});
