import { access } from '../../lib/route-access';
import { z } from '@hono/zod-openapi';
import { apiRoute, errorResponses, jsonBody, listResponse, operation, successResponse, writeErrors } from '../../lib/openapi';
import { fieldTreeFromSchema, listQuerySchema, readQuerySchema } from '../../lib/query';
import { replayListQuery } from './replays.query';
import { CreateReplayBody, REPLAYS_PER_HOUR, ReplaySchema } from './replays.schemas';
import { tags, WebhookParams } from './webhooks.routes';

const ReplayParams = WebhookParams.extend({
  replayId: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'replayId', in: 'path' }, example: 'whr_01JD0000000000000000000000' }),
});

export const replayWebhook = apiRoute({
  ...operation('webhooks.replays', 'create', 'replayWebhookEvents'),
  method: 'post',
  path: '/webhooks/{id}/replay',
  tags,
  summary: 'Replay past events to an endpoint',
  description:
    `Sends this endpoint again the events created in [\`from\`, \`to\`) (at most EVENT_RETENTION_DAYS back, 30 days by default: the events the store keeps) of the kinds in \`types\` ` +
    '(every kind it subscribes to when left out), oldest first, signed as usual and with `X-Store-Replay: <replay id>`; an endpoint created ' +
    'after the events gets them too. Once per event and endpoint: an event with no delivery to this endpoint gets a new one, one whose delivery ' +
    'failed for good is queued again (as redeliver does), and one delivered, pending or retrying is skipped, so the same replay twice sends nothing new. ' +
    'The window is worked in pages by a queue: follow `status` and the counts at `GET /api/webhooks/{id}/replays/{replayId}`. ' +
    `One replay per endpoint at a time (409 while one is queued or running) and ${REPLAYS_PER_HOUR} an hour (429 with Retry-After). ` +
    '422 for a window that is empty, in the future or too old, and for kinds the endpoint does not subscribe to; 409 when the endpoint is inactive.',
  policy: { access: access.permission('webhooks:write') },
  request: { params: WebhookParams, body: jsonBody(CreateReplayBody, '`from`, `to` and optional `types`.') },
  responses: { 202: successResponse(ReplaySchema, 'Queued; the replay, to follow.'), ...errorResponses(...writeErrors, 404, 409, 429) },
});

export const listReplays = apiRoute({
  ...operation('webhooks.replays', 'list', 'listWebhookReplays'),
  method: 'get',
  path: '/webhooks/{id}/replays',
  tags,
  summary: "List a webhook endpoint's replays",
  description: 'Newest first by default, each with its window, kinds, status and counts.',
  policy: { access: access.permission('webhooks:read') },
  request: { params: WebhookParams, query: listQuerySchema(replayListQuery) },
  responses: { 200: listResponse(ReplaySchema, 'A page of replays.'), ...errorResponses(400, 401, 403, 404) },
});

export const getReplay = apiRoute({
  ...operation('webhooks.replays', 'get', 'getWebhookReplay'),
  method: 'get',
  path: '/webhooks/{id}/replays/{replayId}',
  tags,
  summary: 'Get a replay and its progress',
  description: '`status` and the counts so far: `matched` events looked at, `queued` deliveries sent, `skipped` ones already delivered or on their way.',
  policy: { access: access.permission('webhooks:read') },
  request: { params: ReplayParams, query: readQuerySchema(fieldTreeFromSchema(ReplaySchema)) },
  responses: { 200: successResponse(ReplaySchema, 'The replay.'), ...errorResponses(400, 401, 403, 404) },
});
