import { GRANT_RULE } from '../../lib/access';
import { requirePermission } from '../../middleware/auth';
import { apiRoute, bearerAuth, crudOperations, errorResponses, IdParams, jsonBody, listResponse, noContentResponse, successResponse, writeErrors } from '../../lib/openapi';
import { listQuerySchema, readQuerySchema } from '../../lib/query';
import { apiKeyListQuery } from './api-keys.query';
import { ApiKeySchema, CreateApiKeyBody, CreatedApiKeySchema } from './api-keys.schemas';

const tags = ['API keys'];
const names = crudOperations('apiKeys', 'ApiKey', 'ApiKeys');
const canRead = requirePermission('api-keys:read');
const readErrors = [400, 401, 403] as const;

export const listApiKeys = apiRoute({
  ...names.list,
  method: 'get',
  path: '/settings/api-keys',
  tags,
  summary: 'List API keys',
  description: 'Keys with their visible prefix and last-used time; never the key or its hash. Needs `api-keys:read`.',
  security: bearerAuth,
  middleware: [canRead] as const,
  request: { query: listQuerySchema(apiKeyListQuery) },
  responses: { 200: listResponse(ApiKeySchema, 'A page of API keys.'), ...errorResponses(...readErrors) },
});

export const createApiKey = apiRoute({
  ...names.create,
  method: 'post',
  path: '/settings/api-keys',
  tags,
  summary: 'Create an API key',
  description:
    'Give exactly one of `role` (it must exist) or `permissions`; a key of the `vendor` role names its `vendorId` and is scoped to that vendor like its users. `expiresAt` must be in the future (422 otherwise). ' +
    `${GRANT_RULE} The key belongs to the signed-in user who mints it, or to the owner of the key that mints it: while that owner is disabled or no longer covers the key, the key is suspended (401); deleting the owner revokes it. ` +
    'The response carries the key in `key`: the only time it is shown. Needs `api-keys:write`.',
  security: bearerAuth,
  middleware: [requirePermission('api-keys:write')] as const,
  request: { body: jsonBody(CreateApiKeyBody, 'The key.') },
  responses: { 201: successResponse(CreatedApiKeySchema, 'The key, shown once, with its record.'), ...errorResponses(...writeErrors) },
});

export const getApiKey = apiRoute({
  ...names.get,
  method: 'get',
  path: '/settings/api-keys/{id}',
  tags,
  summary: 'Get an API key',
  description: 'Needs `api-keys:read`.',
  security: bearerAuth,
  middleware: [canRead] as const,
  request: { params: IdParams, query: readQuerySchema(apiKeyListQuery.selectable) },
  responses: { 200: successResponse(ApiKeySchema, 'The API key.'), ...errorResponses(...readErrors, 404) },
});

export const revokeApiKey = apiRoute({
  ...names.delete,
  method: 'delete',
  path: '/settings/api-keys/{id}',
  tags,
  summary: 'Revoke an API key',
  description:
    'The key is refused (401) from the very next request. The record stays, with `revokedAt` and status `revoked`. Revoking a revoked key again is also 204 and keeps the first `revokedAt`. ' +
    `${GRANT_RULE} Needs \`api-keys:write\`.`,
  security: bearerAuth,
  middleware: [requirePermission('api-keys:write')] as const,
  request: { params: IdParams },
  responses: { 204: noContentResponse, ...errorResponses(401, 403, 404) },
});
