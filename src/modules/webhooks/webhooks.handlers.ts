import type { Context } from 'hono';
import { config } from '../../config';
import type { AppEnv } from '../../env';
import { crudHandlers } from '../../lib/crud-handlers';
import { ok } from '../../lib/envelope';
import type { AppRouteHandler } from '../../lib/openapi';
import type * as routes from './webhooks.routes';
import * as service from './webhooks.service';

/** Local development and tests set WEBHOOK_ALLOW_PRIVATE_URLS so receivers on loopback and plain http work. */
export const allowPrivateUrls = (c: Context<AppEnv>) => config(c.env).WEBHOOK_ALLOW_PRIVATE_URLS;

// The URL rules depend on the environment; the created endpoint carries its secret, shown once.
export const webhookHandlers = crudHandlers(
  (c) => ({
    list: service.listEndpoints,
    get: service.getEndpoint,
    create: async (db, input) => {
      const { endpoint, secret } = await service.createEndpoint(db, input, allowPrivateUrls(c));
      return { ...endpoint, secret };
    },
    update: (db, id, patch) => service.updateEndpoint(db, id, patch, allowPrivateUrls(c)),
    remove: service.deleteEndpoint,
  }),
  { path: '/webhooks', noun: 'webhook endpoint', createdMessage: 'Webhook endpoint created; store the secret now, it is not shown again' },
);

export const rotateWebhookSecret: AppRouteHandler<typeof routes.rotateWebhookSecret> = async (c) => {
  const { endpoint, secret } = await service.rotateSecret(c.var.db, c.req.valid('param').id, c.req.valid('json'));
  return ok(c, { ...endpoint, secret }, 'Secret rotated; store the new secret now, it is not shown again');
};
