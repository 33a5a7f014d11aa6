import { sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { createMiddleware } from 'hono/factory';
import { orderLines, orders } from '../../db/schema';
import type { AppEnv } from '../../env';
import { ApiError } from '../../lib/errors';
import { hasPermission, isStaff, type Principal, vendorScope } from '../../lib/access';

/**
 * Which orders' shipments a caller reads, as a condition on an order-id column (undefined: all).
 * A vendor user: orders that contain one of its vendor's lines. Staff with `shipments:*` or
 * `orders:*` (read or write): every order. A signed-in customer: its own orders. Another's is 404;
 * an API key with neither permission is 403.
 */
export function shipmentReach(principal: Principal, orderId: SQLiteColumn): SQL | undefined {
  if (principal.kind === 'anonymous') throw ApiError.unauthenticated('This endpoint needs a credential: Authorization: Bearer <API key or token>');
  const vendorId = vendorScope(principal);
  if (vendorId) return sql`${orderId} IN (SELECT ${orderLines.orderId} FROM ${orderLines} WHERE ${orderLines.vendorId} = ${vendorId})`;
  if (isStaff(principal, 'shipments') || isStaff(principal, 'orders')) return undefined;
  if (principal.kind === 'api_key') throw ApiError.forbidden("This credential lacks the 'shipments:read' permission");
  return sql`${orderId} IN (SELECT ${orders.id} FROM ${orders} WHERE ${orders.customerId} = ${principal.id})`;
}

/** Route guard for changing shipments: `shipments:write` or `orders:write`,. */
export function requireShipmentWriter() {
  return createMiddleware<AppEnv>(async function requireShipmentWriter(c, next) {
    const principal = c.var.principal;
    if (principal.kind === 'anonymous') throw ApiError.unauthenticated('This endpoint needs a credential: Authorization: Bearer <API key or token>');
    if (!hasPermission(principal, 'shipments:write') && !hasPermission(principal, 'orders:write')) {
      throw ApiError.forbidden("This credential lacks the 'shipments:write' (or 'orders:write') permission");
    }
    return next();
  });
}
