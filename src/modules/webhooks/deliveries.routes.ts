import { access } from '../../lib/route-access';
import { z } from '@hono/zod-openapi';
import { apiRoute, errorResponses, jsonBody, listResponse, operation, successResponse, writeErrors } from '../../lib/openapi';
import { listQuerySchema, readQuerySchema, fieldTreeFromSchema } from '../../lib/query';
import { DeliveryDetailSchema, DeliverySchema, NoOptionsBody } from './deliveries.schemas';
import { deliveryListQuery } from './deliveries.query';
import { tags, WebhookParams } from './webhooks.routes';

const DeliveryParams = WebhookParams.extend({
  deliveryId: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'deliveryId', in: 'path' }, example: 'whd_01JD0000000000000000000000' }),
});

const acceptedResponse = (description: string) => ({ 202: successResponse(DeliverySchema, description) });
const noOptions = { ...jsonBody(NoOptionsBody, 'Nothing: an empty object or no body.'), required: false };

export const listDeliveries = apiRoute({
  ...operation('webhooks.deliveries', 'list', 'listWebhookDeliveries'),
  method: 'get',
  path: '/webhooks/{id}/deliveries',
  tags,
  summary: "List a webhook endpoint's deliveries",
  description: 'Newest first by default: each event sent to this endpoint, its outcome, attempt count, last status code and next retry.',
  policy: { access: access.permission('webhooks:read') },
  request: { params: WebhookParams, query: listQuerySchema(deliveryListQuery) },
  responses: { 200: listResponse(DeliverySchema, 'A page of deliveries.'), ...errorResponses(400, 401, 403, 404) },
});

export const getDelivery = apiRoute({
  ...operation('webhooks.deliveries', 'get', 'getWebhookDelivery'),
  method: 'get',
  path: '/webhooks/{id}/deliveries/{deliveryId}',
  tags,
  summary: 'Get a delivery with its attempts and body',
  description: 'Every attempt (time, duration, status code, error, response excerpt, next retry) and the exact JSON body sent.',
  policy: { access: access.permission('webhooks:read') },
  request: { params: DeliveryParams, query: readQuerySchema(fieldTreeFromSchema(DeliveryDetailSchema)) },
  responses: { 200: successResponse(DeliveryDetailSchema, 'The delivery.'), ...errorResponses(400, 401, 403, 404) },
});

export const redeliver = apiRoute({
  ...operation('webhooks.deliveries', 'redeliver', 'redeliverWebhookDelivery'),
  method: 'post',
  path: '/webhooks/{id}/deliveries/{deliveryId}/redeliver',
  tags,
  summary: 'Send a delivery again',
  description:
    'Whatever its status, the delivery goes back to `pending` and is queued at once, with the same id (`X-Store-Delivery`), so receivers that ' +
    'deduplicate see it as the delivery they know. Its attempts continue from the last, with a fresh retry schedule; `deliveredAt` keeps the time of an ' +
    'earlier success until a new one. A retry already queued for the delivery may still arrive as well. 409 when the endpoint is inactive or was disabled.',
  policy: { access: access.permission('webhooks:write') },
  request: { params: DeliveryParams, body: noOptions },
  responses: { ...acceptedResponse('Queued; the delivery, now pending.'), ...errorResponses(...writeErrors, 404, 409) },
});

export const testWebhook = apiRoute({
  ...operation('webhooks', 'test', 'testWebhook'),
  method: 'post',
  path: '/webhooks/{id}/test',
  tags,
  summary: 'Send a test ping',
  description:
    'Sends this endpoint (only) a `ping` event, `data: { webhookId, message }`, signed like every delivery; follow it in the deliveries. ' +
    '409 when the endpoint is inactive or was disabled.',
  policy: { access: access.permission('webhooks:write') },
  request: { params: WebhookParams, body: noOptions },
  responses: { ...acceptedResponse('Queued; the new delivery.'), ...errorResponses(...writeErrors, 404, 409) },
});
