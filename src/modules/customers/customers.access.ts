import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../../env';
import { ApiError } from '../../lib/errors';
import { hasPermission, isStaff, type Principal, credentialNeeded } from '../../lib/access';

/** `me` in a customer path stands for the signed-in user. */
export const SELF_ID = 'me';

export type CustomerAction = 'read' | 'write' | 'delete';

export interface CustomerTarget {
  id: string;
  /** The caller acts on its own account. */
  self: boolean;
}

const mayAct = (principal: Principal, action: CustomerAction) => (action === 'read' ? isStaff(principal, 'customers') : hasPermission(principal, 'customers:write'));

/**
 * Which customer a request acts on, and whether it may. Staff (`customers:read` to read,
 * `customers:write` to change) reach every customer; a signed-in user reaches only itself, and any
 * other id is 404 exactly as an unknown one, so ids cannot be probed. Deleting is for staff only.
 */
export function customerTarget(principal: Principal, id: string, action: CustomerAction): CustomerTarget {
  if (principal.kind === 'anonymous') throw credentialNeeded(principal);
  if (id === SELF_ID && principal.kind !== 'user') throw ApiError.forbidden(`'${SELF_ID}' names a signed-in user; an API key acts for no user`);
  const targetId = id === SELF_ID && principal.kind === 'user' ? principal.id : id;
  const self = principal.kind === 'user' && targetId === principal.id;
  if (mayAct(principal, action)) return { id: targetId, self };
  if (self && action !== 'delete') return { id: targetId, self };
  if (self) throw ApiError.forbidden('Only staff can delete a customer account');
  if (principal.kind === 'api_key' || isStaff(principal, 'customers'))
    throw ApiError.forbidden(`This credential lacks the 'customers:${action === 'read' ? 'read' : 'write'}' permission`);
  throw ApiError.notFound('Customer', id);
}

/** Route guard for the customer list: staff with `customers:read` or `customers:write`. */
export function requireCustomerStaff() {
  return createMiddleware<AppEnv>(async function requireCustomerStaff(c, next) {
    const principal = c.var.principal;
    if (principal.kind === 'anonymous') throw credentialNeeded(principal);
    if (!isStaff(principal, 'customers')) throw ApiError.forbidden("This credential lacks the 'customers:read' permission");
    return next();
  });
}
