import { z } from '@hono/zod-openapi';
import { eq, or } from 'drizzle-orm';
import { auditLog } from '../../db/schema';
import { createdAfterFilter, createdBeforeFilter, defineListQuery, enumFilter, exactFilter, fieldTreeFromSchema, type FilterSpec } from '../../lib/query';
import { AUDIT_ACTIONS, AUDIT_ACTOR_KINDS, AuditEntrySchema } from './audit-log.schemas';

const actorFilter: FilterSpec<string | undefined> = {
  schema: z.string().min(1).max(200).optional().openapi({ description: "The actor: a user id or API key id, or the user's email or the key's prefix.", example: 'sk_Tu3NFAa4' }),
  where: (value) => or(eq(auditLog.actorId, value), eq(auditLog.actorLabel, value)),
};

export const auditLogListQuery = defineListQuery({
  resource: 'audit entry',
  id: auditLog.id,
  sortable: { id: auditLog.id, createdAt: auditLog.createdAt },
  defaultSort: [{ field: 'id', direction: 'desc' }],
  selectable: fieldTreeFromSchema(AuditEntrySchema),
  filters: {
    actor: actorFilter,
    actor_kind: enumFilter(auditLog.actorKind, AUDIT_ACTOR_KINDS, 'Kind of actor.'),
    resource: exactFilter(auditLog.resource, 'Resource written, e.g. `page`, `order`, `product`.'),
    resource_id: exactFilter(auditLog.resourceId, 'Id of the resource written.'),
    action: enumFilter(auditLog.action, AUDIT_ACTIONS, 'What was done.'),
    request_id: exactFilter(auditLog.requestId, 'Entries written by one request (its X-Request-Id).'),
    created_after: createdAfterFilter(auditLog.createdAt, 'Written on or after this day (YYYY-MM-DD, UTC), inclusive.'),
    created_before: createdBeforeFilter(auditLog.createdAt, 'Written before this day (YYYY-MM-DD, UTC); the day itself is excluded.'),
  },
});
