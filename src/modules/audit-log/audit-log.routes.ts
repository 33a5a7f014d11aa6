import { access } from '../../lib/route-access';
import { z } from '@hono/zod-openapi';
import { apiRoute, errorResponses, listResponse, operation, successResponse } from '../../lib/openapi';
import { listQuerySchema, readQuerySchema } from '../../lib/query';
import { auditLogListQuery } from './audit-log.query';
import { AuditEntrySchema } from './audit-log.schemas';

const tags = ['Audit log'];

const EntryParams = z.object({
  id: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'id', in: 'path' }, example: '42', description: 'The entry number.' }),
});

export const listAuditLog = apiRoute({
  ...operation('auditLog', 'list', 'listAuditLogEntries'),
  method: 'get',
  path: '/audit-log',
  tags,
  summary: 'List audit log entries',
  description:
    'Every create, update and delete by a staff user, a vendor user or an API key, newest first. Customers acting on their own carts, orders, ' +
    'addresses and profile, guests, and the system (queue consumers, cron) are not recorded. The log cannot be changed: there is no write ' +
    'route, and the database refuses UPDATE and DELETE on it.',
  policy: { access: access.permission('audit-log:read') },
  request: { query: listQuerySchema(auditLogListQuery) },
  responses: { 200: listResponse(AuditEntrySchema, 'A page of audit entries.'), ...errorResponses(400, 401, 403) },
});

export const getAuditEntry = apiRoute({
  ...operation('auditLog', 'get', 'getAuditLogEntry'),
  method: 'get',
  path: '/audit-log/{id}',
  tags,
  summary: 'Get an audit log entry',
  policy: { access: access.permission('audit-log:read') },
  request: { params: EntryParams, query: readQuerySchema(auditLogListQuery.selectable) },
  responses: { 200: successResponse(AuditEntrySchema, 'The entry.'), ...errorResponses(400, 401, 403, 404) },
});
