import { eq, type SQL } from 'drizzle-orm';
import { createMiddleware } from 'hono/factory';
import { products } from '../../db/schema';
import type { AppEnv } from '../../env';
import { ApiError } from '../../lib/errors';
import { hasPermission, type Principal, vendorScope, credentialNeeded } from '../../lib/access';

const READ = ['inventory:read', 'inventory:write', 'products:write'];

/**
 * Reading inventory needs `inventory:read` (or `inventory:write`), or `products:write`: product
 * writers already see and set stock through the products API. Changing it needs `inventory:write`.
 */
export function requireInventory(action: 'read' | 'write') {
  const accepted = action === 'read' ? READ : ['inventory:write'];
  return createMiddleware<AppEnv>(async function requireInventory(c, next) {
    const principal = c.var.principal;
    if (principal.kind === 'anonymous') throw credentialNeeded(principal);
    if (!accepted.some((p) => hasPermission(principal, p))) throw ApiError.forbidden(`This credential lacks the 'inventory:${action}' permission`);
    return next();
  });
}

/** A vendor user reaches its vendor's products' variants only (others are 404); everyone else all. */
export const inventoryReach = (principal: Principal): SQL | undefined => {
  const vendorId = vendorScope(principal);
  return vendorId ? eq(products.vendorId, vendorId) : undefined;
};
