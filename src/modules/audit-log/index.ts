// The public face of the audit-log module: what other areas use of it, and nothing else (test/module-boundaries.node.test.ts).
// Loaded on use, never at the Worker's startup (startup.ts serves that). Written by scripts/module-faces.ts: rerun it.

export { auditLogListQuery } from './audit-log.query';
export * as auditLogRoutes from './audit-log.routes';
export * as auditLogService from './audit-log.service';
