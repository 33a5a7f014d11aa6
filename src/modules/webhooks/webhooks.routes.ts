import { z } from '@hono/zod-openapi';
import {
  apiRoute,
  bearerAuth,
  crudOperations,
  errorResponses,
  IdParams,
  jsonBody,
  listResponse,
  noContentResponse,
  operation,
  successResponse,
  writeErrors,
} from '../../lib/openapi';
import { listQuerySchema, readQuerySchema } from '../../lib/query';
import { requirePermission } from '../../middleware/auth';
import { webhookListQuery } from './webhooks.query';
import { CreatedWebhookEndpointSchema, CreateWebhookBody, RotateSecretBody, UpdateWebhookBody, URL_RULES, WebhookEndpointSchema } from './webhooks.schemas';

export const tags = ['Webhooks'];
const names = crudOperations('webhooks', 'Webhook', 'Webhooks');
export const canRead = requirePermission('webhooks:read');
export const canWrite = requirePermission('webhooks:write');
const readErrors = [400, 401, 403] as const;

export const WebhookParams = z.object({
  id: IdParams.shape.id.openapi({ param: { name: 'id', in: 'path' }, example: 'we_01JD0000000000000000000000' }),
});

export const listWebhooks = apiRoute({
  ...names.list,
  method: 'get',
  path: '/webhooks',
  tags,
  summary: 'List webhook endpoints',
  description: 'Newest first by default. Never shows secrets. Needs `webhooks:read`.',
  security: bearerAuth,
  middleware: [canRead] as const,
  request: { query: listQuerySchema(webhookListQuery) },
  responses: { 200: listResponse(WebhookEndpointSchema, 'A page of webhook endpoints.'), ...errorResponses(...readErrors) },
});

export const createWebhook = apiRoute({
  ...names.create,
  method: 'post',
  path: '/webhooks',
  tags,
  summary: 'Create a webhook endpoint',
  description:
    `Every event of the kinds in \`events\` is POSTed to \`url\`, signed with the endpoint's secret, which this response returns in \`secret\`: the only time it is shown (rotate it to get a new one). URL rules: ${URL_RULES} ` +
    'Unknown event kinds are 422 naming them. Needs `webhooks:write`.',
  security: bearerAuth,
  middleware: [canWrite] as const,
  request: { body: jsonBody(CreateWebhookBody, 'The endpoint.') },
  responses: { 201: successResponse(CreatedWebhookEndpointSchema, 'The endpoint with its secret, shown once.'), ...errorResponses(...writeErrors) },
});

export const getWebhook = apiRoute({
  ...names.get,
  method: 'get',
  path: '/webhooks/{id}',
  tags,
  summary: 'Get a webhook endpoint',
  description: 'Never shows the secret. Needs `webhooks:read`.',
  security: bearerAuth,
  middleware: [canRead] as const,
  request: { params: WebhookParams, query: readQuerySchema(webhookListQuery.selectable) },
  responses: { 200: successResponse(WebhookEndpointSchema, 'The endpoint.'), ...errorResponses(...readErrors, 404) },
});

export const updateWebhook = apiRoute({
  ...names.update,
  method: 'patch',
  path: '/webhooks/{id}',
  tags,
  summary: 'Update a webhook endpoint',
  description:
    'Change `url` (same rules as on creation), `events`, `description` or `active`. `active: true` on an endpoint the store disabled for failing re-enables it and clears `disabledAt`, `disabledReason` and `failingSince`. Needs `webhooks:write`.',
  security: bearerAuth,
  middleware: [canWrite] as const,
  request: { params: WebhookParams, body: jsonBody(UpdateWebhookBody, 'Fields to change.') },
  responses: { 200: successResponse(WebhookEndpointSchema, 'The updated endpoint.'), ...errorResponses(...writeErrors, 404) },
});

export const deleteWebhook = apiRoute({
  ...names.delete,
  method: 'delete',
  path: '/webhooks/{id}',
  tags,
  summary: 'Delete a webhook endpoint',
  description: 'Its deliveries and their attempts are deleted with it; queued retries are dropped. Needs `webhooks:write`.',
  security: bearerAuth,
  middleware: [canWrite] as const,
  request: { params: WebhookParams },
  responses: { 204: noContentResponse, ...errorResponses(401, 403, 404) },
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
    'receivers can switch secrets without missing a delivery. Rotating again during an overlap retires the oldest secret at once. Needs `webhooks:write`.',
  security: bearerAuth,
  middleware: [canWrite] as const,
  request: { params: WebhookParams, body: { ...jsonBody(RotateSecretBody, 'Optional: `overlapHours`.'), required: false } },
  responses: { 200: successResponse(CreatedWebhookEndpointSchema, 'The endpoint with its new secret, shown once.'), ...errorResponses(...writeErrors, 404) },
});
