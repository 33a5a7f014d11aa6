import { GRANT_RULE } from '../../lib/access';
import { crudRoutes } from '../../lib/crud-routes';
import { roleListQuery } from './roles.query';
import { CreateRoleBody, RoleSchema, UpdateRoleBody } from './roles.schemas';

export const roleRoutes = crudRoutes({
  path: '/roles',
  tag: 'Roles',
  sdk: { group: 'roles', singular: 'Role', plural: 'Roles' },
  noun: 'role',
  nouns: 'roles',
  schema: RoleSchema,
  createBody: CreateRoleBody,
  updateBody: UpdateRoleBody,
  listQuery: roleListQuery,
  resource: 'roles',
  reads: 'permission',
  slug: { field: 'name' },
  notes: {
    list: 'Built-in and custom roles.',
    create: `Each permission must name a known resource and action (422 naming the entry otherwise). Duplicate name is 409. ${GRANT_RULE}`,
    update: `\`permissions\` replaces the list. A built-in role's name and permissions cannot change (409); its description can. Holders of the role get the new permissions on their next request. 409 when the role changed since it was read. ${GRANT_RULE}`,
    delete: `Refused with 409 for a built-in role and for a role still held by a user or an API key. ${GRANT_RULE}`,
  },
});
