import { created, list, noContent, ok, pagination } from '../../lib/envelope';
import type { AppRouteHandler } from '../../lib/openapi';
import { project } from '../../lib/query';
import type * as routes from './api-keys.routes';
import * as service from './api-keys.service';

export const listApiKeys: AppRouteHandler<typeof routes.listApiKeys> = async (c) => {
  const query = c.req.valid('query');
  const { items, total } = await service.listApiKeys(c.var.db, query);
  return list(
    c,
    items.map((k) => project(k, query.fields)),
    pagination(query.page, query.limit, total),
  );
};

export const getApiKey: AppRouteHandler<typeof routes.getApiKey> = async (c) => {
  const { fields } = c.req.valid('query');
  return ok(c, project(await service.getApiKey(c.var.db, c.req.valid('param').id), fields));
};

export const createApiKey: AppRouteHandler<typeof routes.createApiKey> = async (c) => {
  const { key, apiKey } = await service.createApiKeyFor(c.var.db, c.var.principal, c.req.valid('json'));
  return created(c, { ...apiKey, key }, `/api/settings/api-keys/${apiKey.id}`, 'API key created; store the key now, it is not shown again');
};

export const revokeApiKey: AppRouteHandler<typeof routes.revokeApiKey> = async (c) => {
  await service.revokeApiKeyById(c.var.db, c.var.principal, c.req.valid('param').id);
  return noContent(c);
};
