import { access } from '../../lib/route-access';
import { z } from '@hono/zod-openapi';
import { apiRoute, errorResponses, operation, successResponse } from '../../lib/openapi';

export const HealthSchema = z.object({ status: z.enum(['ok', 'degraded']), database: z.enum(['ok', 'unavailable']), time: z.iso.datetime() }).openapi('Health');

export const health = apiRoute({
  ...operation('health', 'get', 'getHealth'),
  method: 'get',
  path: '/health',
  tags: ['Health'],
  policy: { access: access.none(), counted: false },
  summary: 'Liveness and database check',
  description: 'Public, needs no credential and counts against no rate limit. 503 when the database cannot be reached.',
  responses: {
    200: successResponse(HealthSchema, 'The API and its database answer.'),
    503: successResponse(HealthSchema, 'The database does not answer.'),
    ...errorResponses(),
  },
});
