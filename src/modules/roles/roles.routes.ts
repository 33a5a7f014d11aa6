import { GRANT_RULE } from '../../lib/access';
import { requirePermission } from '../../middleware/auth';
import { apiRoute, bearerAuth, crudOperations, errorResponses, IdParams, jsonBody, listResponse, noContentResponse, successResponse, writeErrors } from '../../lib/openapi';
import { listQuerySchema, readQuerySchema } from '../../lib/query';
import { roleListQuery } from './roles.query';
import { CreateRoleBody, RoleSchema, UpdateRoleBody } from './roles.schemas';

const tags = ['Roles'];
const names = crudOperations('roles', 'Role', 'Roles');
const canRead = requirePermission('roles:read');
const canWrite = requirePermission('roles:write');
const readErrors = [400, 401, 403] as const;

export const listRoles = apiRoute({
  ...names.list,
  method: 'get',
  path: '/roles',
  tags,
  summary: 'List roles',
  description: 'Built-in and custom roles. Needs `roles:read`.',
  security: bearerAuth,
  middleware: [canRead] as const,
  request: { query: listQuerySchema(roleListQuery) },
  responses: { 200: listResponse(RoleSchema, 'A page of roles.'), ...errorResponses(...readErrors) },
});

export const createRole = apiRoute({
  ...names.create,
  method: 'post',
  path: '/roles',
  tags,
  summary: 'Create a role',
  description: `Each permission must name a known resource and action (422 naming the entry otherwise). Duplicate name is 409. ${GRANT_RULE} Needs \`roles:write\`.`,
  security: bearerAuth,
  middleware: [canWrite] as const,
  request: { body: jsonBody(CreateRoleBody, 'The role.') },
  responses: { 201: successResponse(RoleSchema, 'The created role.'), ...errorResponses(...writeErrors, 409) },
});

export const getRole = apiRoute({
  ...names.get,
  method: 'get',
  path: '/roles/{id}',
  tags,
  summary: 'Get a role by id or name',
  description: 'Needs `roles:read`.',
  security: bearerAuth,
  middleware: [canRead] as const,
  request: { params: IdParams, query: readQuerySchema(roleListQuery.selectable) },
  responses: { 200: successResponse(RoleSchema, 'The role.'), ...errorResponses(...readErrors, 404) },
});

export const updateRole = apiRoute({
  ...names.update,
  method: 'patch',
  path: '/roles/{id}',
  tags,
  summary: 'Update a role',
  description: `\`permissions\` replaces the list. A built-in role's name and permissions cannot change (409); its description can. Holders of the role get the new permissions on their next request. 409 when the role changed since it was read. ${GRANT_RULE} Needs \`roles:write\`.`,
  security: bearerAuth,
  middleware: [canWrite] as const,
  request: { params: IdParams, body: jsonBody(UpdateRoleBody, 'Fields to change.') },
  responses: { 200: successResponse(RoleSchema, 'The updated role.'), ...errorResponses(...writeErrors, 404, 409) },
});

export const deleteRole = apiRoute({
  ...names.delete,
  method: 'delete',
  path: '/roles/{id}',
  tags,
  summary: 'Delete a role',
  description: `Refused with 409 for a built-in role and for a role still held by a user or an API key. ${GRANT_RULE} Needs \`roles:write\`.`,
  security: bearerAuth,
  middleware: [canWrite] as const,
  request: { params: IdParams },
  responses: { 204: noContentResponse, ...errorResponses(401, 403, 404, 409) },
});
