import type { Database } from '../../db/client';
import { hasPermission, type Principal, vendorScope } from '../../lib/access';
import { crudHandlers } from '../../lib/crud-handlers';
import { ApiError } from '../../lib/errors';
import type { ParsedListQuery } from '../../lib/query';
import type { staffUserListQuery } from './users.query';
import * as service from './users.service';

function listUsers(db: Database, query: ParsedListQuery<typeof staffUserListQuery.filters>, principal: Principal) {
  if (vendorScope(principal) !== null) throw ApiError.forbidden('A vendor user reads only its own record');
  return service.listStaffUsers(db, query);
}

/** A user reads itself; staff with users:read read anyone; to a vendor user, everyone else is 404. */
async function getUser(db: Database, id: string, principal: Principal) {
  const self = principal.kind === 'user' && principal.id === id;
  if (!self && vendorScope(principal) !== null) throw ApiError.notFound('User', id);
  if (!self && !hasPermission(principal, 'users:read')) throw ApiError.forbidden("This credential lacks the 'users:read' permission");
  return service.toUser(await service.getStaffUserRow(db, id));
}

// Writes check the grant rule and the last-admin rules against the caller.
export const userHandlers = crudHandlers(
  (c) => ({
    list: listUsers,
    get: getUser,
    create: async (db, input) => service.toUser(await service.createStaffUser(db, c.var.principal, input)),
    update: async (db, id, patch) => service.toUser(await service.updateStaffUser(db, c.var.principal, id, patch)),
    remove: (db, id) => service.deleteStaffUser(db, c.var.principal, id),
  }),
  { path: '/users', noun: 'user' },
);
