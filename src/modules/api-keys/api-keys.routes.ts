import { GRANT_RULE } from '../../lib/access';
import { crudRoutes } from '../../lib/crud-routes';
import { apiKeyListQuery } from './api-keys.query';
import { ApiKeySchema, CreateApiKeyBody, CreatedApiKeySchema, UpdateApiKeyBody } from './api-keys.schemas';

export const apiKeyRoutes = crudRoutes({
  path: '/settings/api-keys',
  tag: 'API keys',
  sdk: { group: 'apiKeys', singular: 'ApiKey', plural: 'ApiKeys' },
  noun: 'API key',
  nouns: 'API keys',
  schema: ApiKeySchema,
  createBody: CreateApiKeyBody,
  updateBody: UpdateApiKeyBody,
  listQuery: apiKeyListQuery,
  resource: 'api-keys',
  reads: 'permission',
  operations: ['list', 'create', 'get', 'update', 'delete'],
  conflicts: [],
  slug: null,
  created: { schema: CreatedApiKeySchema, description: 'The key, shown once, with its record.' },
  summaries: { create: 'Create an API key', get: 'Get an API key', update: 'Rename an API key or pin its API version', delete: 'Revoke an API key' },
  notes: {
    list: 'Keys with their visible prefix and last-used time; never the key or its hash.',
    create:
      'Give exactly one of `role` (it must exist) or `permissions`; a key of the `vendor` role names its `vendorId` and is scoped to that vendor like its users. `expiresAt` must be in the future (422 otherwise). ' +
      `${GRANT_RULE} The key belongs to the signed-in user who mints it, or to the owner of the key that mints it: while that owner is disabled or no longer covers the key, the key is suspended (401); deleting the owner revokes it. ` +
      'The response carries the key in `key`: the only time it is shown.',
    update: `Changes \`name\` and \`apiVersion\` only; what a key may do never changes (mint a new one and revoke this one). ${GRANT_RULE}`,
    delete: `The key is refused (401) from the very next request. The record stays, with \`revokedAt\` and status \`revoked\`. Revoking a revoked key again is also 204 and keeps the first \`revokedAt\`. ${GRANT_RULE}`,
  },
});
