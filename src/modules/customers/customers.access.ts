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

const mayAct = (principal: Principal, action: CustomerAction, resource: string) =>
  action === 'read' ? isStaff(principal, resource) : hasPermission(principal, `${resource}:write`);

/**
 * Which customer a request acts on, and whether it may. Staff (`<resource>:read` to read,
 * `<resource>:write` to change; `customers` by default, `store-credit` for a customer's credit) reach
 * every customer; a signed-in user reaches only itself, and any other id is 404 exactly as an
 * unknown one, so ids cannot be probed. Deleting is for staff only.
 */
export function customerTarget(principal: Principal, id: string, action: CustomerAction, resource = 'customers'): CustomerTarget {
  if (principal.kind === 'anonymous') throw credentialNeeded(principal);
  if (id === SELF_ID && principal.kind !== 'user') throw ApiError.forbidden(`'${SELF_ID}' names a signed-in user; an API key acts for no user`);
  const targetId = id === SELF_ID && principal.kind === 'user' ? principal.id : id;
  const self = principal.kind === 'user' && targetId === principal.id;
  if (mayAct(principal, action, resource)) return { id: targetId, self };
  if (self && action !== 'delete') return { id: targetId, self };
  if (self) throw ApiError.forbidden('Only staff can delete a customer account');
  if (principal.kind === 'api_key' || isStaff(principal, resource))
    throw ApiError.forbidden(`This credential lacks the '${resource}:${action === 'read' ? 'read' : 'write'}' permission`);
  throw ApiError.notFound('Customer', id);
}
