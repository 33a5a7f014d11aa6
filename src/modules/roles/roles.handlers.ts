import { crudHandlers } from '../../lib/crud-handlers';
import * as service from './roles.service';

// Writes check the grant rule against the caller.
export const roleHandlers = crudHandlers(
  (c) => ({
    list: service.listRoles,
    get: service.getRole,
    create: (db, input) => service.createRole(db, c.var.principal, input),
    update: (db, idOrName, patch) => service.updateRole(db, c.var.principal, idOrName, patch),
    remove: (db, idOrName) => service.deleteRole(db, c.var.principal, idOrName),
  }),
  { path: '/roles', noun: 'role' },
);
