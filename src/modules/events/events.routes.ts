import { access } from '../../lib/route-access';
import { z } from '@hono/zod-openapi';
import { apiRoute, errorResponses, listResponse, operation, successResponse } from '../../lib/openapi';
import { listQuerySchema, readQuerySchema } from '../../lib/query';
import { eventListQuery } from './events.query';
import { EventSchema } from './events.schemas';

const tags = ['Events'];
const reach =
  'Needs `events:read` (admins; vendors read the events of their own products, `product.*` and `inventory.low`, and the `order.*` events of orders holding ' +
  'their lines with `data` cut to `orderId`, `orderNumber`, `status`, `previousStatus` and `reason`). Customers read none. ' +
  'Events are kept `EVENT_RETENTION_DAYS` (30 by default), then pruned.';

export const listEvents = apiRoute({
  ...operation('events', 'list', 'listEvents'),
  method: 'get',
  path: '/events',
  tags,
  summary: 'List the events the store emitted',
  description:
    'Every event, newest first (`sort=position` for oldest first), each exactly as its webhook deliveries carried it: to catch up after a receiver was down, ' +
    'or to back-fill a new endpoint. Page by cursor, which stays stable while new events arrive: newest first, pass the last event of a page as `before`; ' +
    'oldest first (`sort=position`), pass it as `after`. `pagination.total` counts what is left of that walk, so `hasNext` says whether to go on. ' +
    'A cursor naming no event kept (pruned, or mistyped) is 400, never an empty page. ' +
    `${reach}`,
  policy: { access: access.permission('events:read', { vendor: 'scoped' }) },
  request: { query: listQuerySchema(eventListQuery) },
  responses: { 200: listResponse(EventSchema, 'A page of events.'), ...errorResponses(400, 401, 403) },
});

export const getEvent = apiRoute({
  ...operation('events', 'get', 'getEvent'),
  method: 'get',
  path: '/events/{id}',
  tags,
  summary: 'Get an event',
  description: `The same object its webhook deliveries carried (same id, same \`data\`). ${reach}`,
  policy: { access: access.permission('events:read', { vendor: 'scoped' }) },
  request: {
    params: z.object({
      id: z
        .string()
        .min(1)
        .max(200)
        .openapi({ param: { name: 'id', in: 'path' }, example: 'evt_01JD0000000000000000000000' }),
    }),
    query: readQuerySchema(eventListQuery.selectable),
  },
  responses: { 200: successResponse(EventSchema, 'The event.'), ...errorResponses(400, 401, 403, 404) },
});
