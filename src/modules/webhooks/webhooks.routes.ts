import { access } from '../../lib/route-access';
import { z } from '@hono/zod-openapi';
import { crudRoutes } from '../../lib/crud-routes';
import { apiRoute, errorResponses, IdParams, jsonBody, operation, successResponse, writeErrors } from '../../lib/openapi';
import { webhookListQuery } from './webhooks.query';
import { CreatedWebhookEndpointSchema, CreateWebhookBody, RotateSecretBody, UpdateWebhookBody, URL_RULES, WebhookEndpointSchema } from './webhooks.schemas';

const tag = 'Webhooks';
export const tags = [tag];

export const WebhookParams = z.object({
  id: IdParams.shape.id.openapi({ param: { name: 'id', in: 'path' }, example: 'we_01JD0000000000000000000000' }),
});

export const webhookRoutes = crudRoutes({
  path: '/webhooks',
  tag,
  sdk: { group: 'webhooks', singular: 'Webhook', plural: 'Webhooks' },
  noun: 'webhook endpoint',
  nouns: 'webhook endpoints',
  schema: WebhookEndpointSchema,
  createBody: CreateWebhookBody,
  updateBody: UpdateWebhookBody,
  listQuery: webhookListQuery,
  resource: 'webhooks',
  reads: 'permission',
  itemParams: WebhookParams,
  conflicts: [],
  slug: null,
  created: { schema: CreatedWebhookEndpointSchema, description: 'The endpoint with its secret, shown once.' },
  notes: {
    list: 'Newest first by default. Never shows secrets.',
    create:
      `Every event of the kinds in \`events\` is POSTed to \`url\`, signed with the endpoint's secret, which this response returns in \`secret\`: the only time it is shown (rotate it to get a new one). URL rules: ${URL_RULES} ` +
      'Unknown event kinds are 422 naming them.',
    get: 'Never shows the secret.',
    update:
      'Change `url` (same rules as on creation), `events`, `description` or `active`. `active: true` on an endpoint the store disabled for failing re-enables it and clears `disabledAt`, `disabledReason` and `failingSince`.',
    delete: 'Its deliveries and their attempts are deleted with it; queued retries are dropped.',
  },
});

export const rotateWebhookSecret = apiRoute({
  ...operation('webhooks', 'rotateSecret', 'rotateWebhookSecret'),
  method: 'post',
  path: '/webhooks/{id}/rotate-secret',
  tags,
  summary: "Rotate a webhook endpoint's secret",
  description:
    'Mints a new secret, returned in `secret` this once. The old one keeps signing next to it for `overlapHours` (24 by default; 0 retires it at once): ' +
    'deliveries then carry `X-Store-Signature` (new secret), `X-Store-Signature-Previous` (old secret) and two `v1,` entries in `webhook-signature`, so ' +
    'receivers can switch secrets without missing a delivery. Rotating again during an overlap retires the oldest secret at once.',
  policy: { access: access.permission('webhooks:write') },
  request: { params: WebhookParams, body: { ...jsonBody(RotateSecretBody, 'Optional: `overlapHours`.'), required: false } },
  responses: { 200: successResponse(CreatedWebhookEndpointSchema, 'The endpoint with its new secret, shown once.'), ...errorResponses(...writeErrors, 404) },
});
