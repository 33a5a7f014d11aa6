import { createRouter } from '../../lib/router';
import * as handlers from './audit-log.handlers';
import * as routes from './audit-log.routes';

export const auditLogRouter = createRouter().openapi(routes.listAuditLog, handlers.listAuditLog).openapi(routes.getAuditEntry, handlers.getAuditEntry);
