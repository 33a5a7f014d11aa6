// The shapes of the audit-log module that other areas use (its *.schemas.ts), apart from its behaviour (index.ts), so a
// shape loads no service (test/module-boundaries.node.test.ts). Loaded on use. Written by scripts/module-faces.ts: rerun it.

export { AUDIT_ACTIONS, AUDIT_ACTOR_KINDS } from './audit-log.schemas';
export type { AuditEntry } from './audit-log.schemas';
