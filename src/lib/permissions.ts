/**
 * The permissions a role or an API key can hold: `resource:action`, `resource:*` (every action on
 * one resource) or `*` (everything). Declared here so a typo (`product:write`) is refused when a
 * role or key is written instead of silently granting nothing.
 */
export const PERMISSION_RESOURCES = [
  'products',
  'categories',
  'brands',
  'inventory',
  'orders',
  'payments',
  'shipments',
  'carts',
  'customers',
  'users',
  'vendors',
  'roles',
  'settings',
  'api-keys',
  'coupons',
  'webhooks',
  'notifications',
  'content',
  'audit-log',
  'reports',
  'events',
  // Money surfaces, each its own resource so no coarser permission reaches them by accident; the
  // built-in vendor role holds none (migration 0072 granted them to whoever could act on them before).
  'price-lists',
  'promotions',
  'gift-cards',
  'store-credit',
  'returns',
] as const;
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
