import { GRANT_RULE } from '../../lib/access';
import { requireCredential, requirePermission } from '../../middleware/auth';
import { apiRoute, bearerAuth, crudOperations, errorResponses, IdParams, jsonBody, listResponse, noContentResponse, successResponse, writeErrors } from '../../lib/openapi';
import { listQuerySchema, readQuerySchema } from '../../lib/query';
import { staffUserListQuery } from './users.query';
import { CreateStaffUserBody, UpdateStaffUserBody, UserSchema } from './users.schemas';

const tags = ['Users'];
const names = crudOperations('users', 'User', 'Users');
const canWrite = requirePermission('users:write');
const readErrors = [400, 401, 403] as const;
const grantNote = GRANT_RULE;

export const listUsers = apiRoute({
  ...names.list,
  method: 'get',
  path: '/users',
  tags,
  summary: 'List admin and vendor users',
  description: 'Every user whose role is not customer (customers are at `/api/customers`). Needs `users:read`.',
  security: bearerAuth,
  middleware: [requirePermission('users:read')] as const,
  request: { query: listQuerySchema(staffUserListQuery) },
  responses: { 200: listResponse(UserSchema, 'A page of users.'), ...errorResponses(...readErrors) },
});

export const createUser = apiRoute({
  ...names.create,
  method: 'post',
  path: '/users',
  tags,
  summary: 'Create an admin or vendor user',
  description: `\`role\` must exist and not be customer; role vendor needs \`vendorId\` of an existing vendor, other roles refuse it (422). Duplicate email is 409. ${grantNote} Needs \`users:write\`.`,
  security: bearerAuth,
  middleware: [canWrite] as const,
  request: { body: jsonBody(CreateStaffUserBody, 'The user.') },
  responses: { 201: successResponse(UserSchema, 'The created user.'), ...errorResponses(...writeErrors, 409) },
});

export const getUser = apiRoute({
  ...names.get,
  method: 'get',
  path: '/users/{id}',
  tags,
  summary: 'Get an admin or vendor user',
  description: 'Needs `users:read`, except that any signed-in staff user reads its own record. To a vendor user every other user is 404.',
  security: bearerAuth,
  middleware: [requireCredential()] as const,
  request: { params: IdParams, query: readQuerySchema(staffUserListQuery.selectable) },
  responses: { 200: successResponse(UserSchema, 'The user.'), ...errorResponses(...readErrors, 404) },
});

export const updateUser = apiRoute({
  ...names.update,
  method: 'patch',
  path: '/users/{id}',
  tags,
  summary: 'Update an admin or vendor user',
  description: `Leaving role vendor drops the vendor. Disabling or demoting a user suspends the API keys it owns while it no longer covers them. 409 for disabling or demoting the last active admin, and for a user disabling itself. ${grantNote} Needs \`users:write\`.`,
  security: bearerAuth,
  middleware: [canWrite] as const,
  request: { params: IdParams, body: jsonBody(UpdateStaffUserBody, 'Fields to change.') },
  responses: { 200: successResponse(UserSchema, 'The updated user.'), ...errorResponses(...writeErrors, 404, 409) },
});

export const deleteUser = apiRoute({
  ...names.delete,
  method: 'delete',
  path: '/users/{id}',
  tags,
  summary: 'Delete an admin or vendor user',
  description: `The user's tokens stop working at once and the API keys it owns are revoked. 409 for the last active admin and for a user deleting itself. ${grantNote} Needs \`users:write\`.`,
  security: bearerAuth,
  middleware: [canWrite] as const,
  request: { params: IdParams },
  responses: { 204: noContentResponse, ...errorResponses(401, 403, 404, 409) },
});
