/**
 * The permissions a role or an API key can hold: `resource:action`, `resource:*` (every action on
 * one resource) or `*` (everything). The resources are the modules': each module.ts declares the
 * ones it introduces (money surfaces each their own, so no coarser permission reaches them by
 * accident), and src/modules/registry.ts lists them. Known here so a typo (`product:write`) is
 * refused when a role or key is written instead of silently granting nothing.
 */
import { PERMISSION_RESOURCES } from '../modules/registry';

export { PERMISSION_RESOURCES };
export const PERMISSION_ACTIONS = ['read', 'write'] as const;
/**
 * Permissions outside resource × read/write: `storefront:buyer-ip` lets a server-side storefront's
 * secret key name its shopper in X-Buyer-IP, to be counted per shopper (src/middleware/rate-limit.ts).
 */
export const SPECIAL_PERMISSIONS: Record<string, readonly string[]> = { storefront: ['buyer-ip'] };

const resources: readonly string[] = PERMISSION_RESOURCES;
const actions: readonly string[] = PERMISSION_ACTIONS;

/** Why `permission` is not a declared permission, or undefined when it is one. */
export function permissionProblem(permission: string): string | undefined {
  if (permission === '*') return undefined;
  const [resource = '', action, ...rest] = permission.split(':');
  if (action === undefined || rest.length) return `'${permission}' is not of the form resource:action, resource:* or *`;
  const special = SPECIAL_PERMISSIONS[resource];
  if (special) return action === '*' || special.includes(action) ? undefined : `'${permission}' names an unknown action '${action}'; known: ${special.join(', ')}, *`;
  if (!resources.includes(resource)) return `'${permission}' names an unknown resource '${resource}'; known: ${resources.join(', ')}`;
  if (action !== '*' && !actions.includes(action)) return `'${permission}' names an unknown action '${action}'; known: ${actions.join(', ')}, *`;
  return undefined;
}
