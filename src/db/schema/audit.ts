import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

/**
 * The audit log (issue 8): one row per row a staff user, vendor user or API key created, changed
 * or deleted. Rows are written by triggers on the audited tables (src/db/audit-triggers.ts) in the
 * same transaction as the change, and never changed afterwards: triggers refuse UPDATE and DELETE.
 * `id` grows with every row, so it orders the log as it was written.
 */
export const auditLog = sqliteTable(
  'audit_log',
  {
    id: integer('id').primaryKey({ autoIncrement: true }),
    /** `user` or `api_key`. */
    actorKind: text('actor_kind').notNull(),
    actorId: text('actor_id').notNull(),
    /** The user's email or the key's visible prefix, as they were at the time. */
    actorLabel: text('actor_label'),
    actorRole: text('actor_role'),
    resource: text('resource').notNull(),
    resourceId: text('resource_id').notNull(),
    /** `create`, `update` or `delete`. */
    action: text('action').notNull(),
    /** `{ field: { before?, after? } }`: every field on create/delete, the changed ones on update; secrets redacted. */
    changes: text('changes', { mode: 'json' }).$type<Record<string, { before?: unknown; after?: unknown }>>().notNull(),
    requestId: text('request_id'),
    method: text('method'),
    path: text('path'),
    createdAt: text('created_at').notNull(),
  },
  (t) => [
    index('audit_log_created_idx').on(t.createdAt, t.id),
    index('audit_log_resource_idx').on(t.resource, t.resourceId, t.id),
    index('audit_log_actor_idx').on(t.actorId, t.id),
    index('audit_log_request_idx').on(t.requestId),
  ],
);

/**
 * Who is writing, for the audit triggers to read: one row (id 1), inserted as the first statement
 * of an audited principal's D1 batch and deleted as its last (src/d1/audit.ts), so it exists only
 * inside that transaction. Writes without it (customers, guests, queue consumers, cron) are not
 * audited.
 */
export const auditContext = sqliteTable('audit_context', {
  id: integer('id').primaryKey(),
  actorKind: text('actor_kind').notNull(),
  actorId: text('actor_id').notNull(),
  actorLabel: text('actor_label'),
  actorRole: text('actor_role'),
  requestId: text('request_id'),
  method: text('method'),
  path: text('path'),
  at: text('at').notNull(),
});

export type AuditLogRow = typeof auditLog.$inferSelect;
