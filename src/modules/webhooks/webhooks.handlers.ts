import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { created, list, noContent, ok, pagination } from '../../lib/envelope';
import type { AppRouteHandler } from '../../lib/openapi';
import { project } from '../../lib/query';
import type * as routes from './webhooks.routes';
import * as service from './webhooks.service';
import { config } from '../../config';

/** Local development and tests set WEBHOOK_ALLOW_PRIVATE_URLS so receivers on loopback and plain http work. */
export const allowPrivateUrls = (c: Context<AppEnv>) => config(c.env).WEBHOOK_ALLOW_PRIVATE_URLS;

export const listWebhooks: AppRouteHandler<typeof routes.listWebhooks> = async (c) => {
  const query = c.req.valid('query');
  const { items, total } = await service.listEndpoints(c.var.db, query);
  return list(
    c,
    items.map((item) => project(item, query.fields)),
    pagination(query.page, query.limit, total),
  );
};

export const getWebhook: AppRouteHandler<typeof routes.getWebhook> = async (c) => {
  return ok(c, project(await service.getEndpoint(c.var.db, c.req.valid('param').id), c.req.valid('query').fields));
};

export const createWebhook: AppRouteHandler<typeof routes.createWebhook> = async (c) => {
  const { endpoint, secret } = await service.createEndpoint(c.var.db, c.req.valid('json'), allowPrivateUrls(c));
  return created(c, { ...endpoint, secret }, `/api/webhooks/${endpoint.id}`, 'Webhook endpoint created; store the secret now, it is not shown again');
};

export const updateWebhook: AppRouteHandler<typeof routes.updateWebhook> = async (c) => {
  return ok(c, await service.updateEndpoint(c.var.db, c.req.valid('param').id, c.req.valid('json'), allowPrivateUrls(c)), 'Webhook endpoint updated');
};

export const deleteWebhook: AppRouteHandler<typeof routes.deleteWebhook> = async (c) => {
  await service.deleteEndpoint(c.var.db, c.req.valid('param').id);
  return noContent(c);
};

export const rotateWebhookSecret: AppRouteHandler<typeof routes.rotateWebhookSecret> = async (c) => {
  const { endpoint, secret } = await service.rotateSecret(c.var.db, c.req.valid('param').id, c.req.valid('json'));
  return ok(c, { ...endpoint, secret }, 'Secret rotated; store the new secret now, it is not shown again');
};
