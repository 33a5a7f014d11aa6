import { crudHandlers } from '../../lib/crud-handlers';
import * as service from './api-keys.service';

// Minting and revoking apply the grant rule to the caller; the created key carries its secret, shown once.
export const apiKeyHandlers = crudHandlers(
  (c) => ({
    list: service.listApiKeys,
    get: service.getApiKey,
    create: async (db, input) => {
      const { key, apiKey } = await service.createApiKeyFor(db, c.var.principal, input);
      return { ...apiKey, key };
    },
    update: (db, id, patch) => service.updateApiKey(db, c.var.principal, id, patch),
    remove: (db, id) => service.revokeApiKeyById(db, c.var.principal, id),
  }),
  { path: '/settings/api-keys', noun: 'API key', createdMessage: 'API key created; store the key now, it is not shown again' },
);
