import { count, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type AuditLogRow, auditLog } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { listPlan, type ParsedListQuery } from '../../lib/query';
import { auditLogListQuery } from './audit-log.query';
import type { AuditEntry } from './audit-log.schemas';

/** Reads only: the log is written by triggers (src/db/audit-triggers.ts) and refuses changes. */

function toEntry(row: AuditLogRow): AuditEntry {
  return {
    id: row.id,
    actor: { kind: row.actorKind as AuditEntry['actor']['kind'], id: row.actorId, label: row.actorLabel, role: row.actorRole },
    resource: row.resource,
    resourceId: row.resourceId,
    action: row.action as AuditEntry['action'],
    changes: row.changes,
    requestId: row.requestId,
    method: row.method,
    path: row.path,
    createdAt: row.createdAt,
  };
}

export async function listAuditLog(db: Database, query: ParsedListQuery<typeof auditLogListQuery.filters>) {
  const plan = listPlan(auditLogListQuery, query);
  const [rows, totals] = await db.batch([
    db
      .select()
      .from(auditLog)
      .where(plan.where)
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    db.select({ total: count() }).from(auditLog).where(plan.matching),
  ]);
  return { items: rows.map(toEntry), total: totals[0]!.total };
}

export async function getAuditEntry(db: Database, id: string): Promise<AuditEntry> {
  const [row] = /^\d{1,15}$/.test(id)
    ? await db
        .select()
        .from(auditLog)
        .where(eq(auditLog.id, Number(id)))
        .limit(1)
    : [];
  if (!row) throw ApiError.notFound('Audit entry', id);
  return toEntry(row);
}
