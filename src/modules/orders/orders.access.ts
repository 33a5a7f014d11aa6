import { eq, type SQL, sql } from 'drizzle-orm';
import { orderLines, orders } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { hasPermission, isStaff, type Principal, vendorScope, credentialNeeded } from '../../lib/access';

/**
 * Which orders a caller reaches (docs/api.md, Permissions). Staff with `orders:read` (or
 * `orders:write`) reach every order; a vendor user only the orders holding a line of its vendor, and
 * in them only those lines; any other signed-in user (a customer) only its own orders. Orders out
 * of reach are 404, as unknown ones are, so ids cannot be probed. The reach is a WHERE condition of
 * the one read, never a filter applied afterwards.
 */
export type OrderReach = { kind: 'all' } | { kind: 'vendor'; vendorId: string } | { kind: 'customer'; customerId: string };

export const ALL_ORDERS: OrderReach = { kind: 'all' };

/** The reach of a read. Checked before `orders:read`: the built-in vendor role holds it, but only for its own lines. */
export function readReach(principal: Principal): OrderReach {
  if (principal.kind === 'anonymous') throw credentialNeeded(principal);
  const vendorId = vendorScope(principal);
  if (vendorId) return { kind: 'vendor', vendorId };
  if (isStaff(principal, 'orders')) return ALL_ORDERS;
  if (principal.kind === 'user') return { kind: 'customer', customerId: principal.id };
  throw ApiError.forbidden("This credential lacks the 'orders:read' permission");
}

/** The reach of a cancellation: staff with `orders:write` cancel any order, a customer its own (while pending). */
export function cancelReach(principal: Principal): OrderReach {
  if (principal.kind === 'anonymous') throw credentialNeeded(principal);
  if (vendorScope(principal)) throw ApiError.forbidden('Vendor users cannot cancel orders');
  if (hasPermission(principal, 'orders:write')) return ALL_ORDERS;
  if (principal.kind === 'user') return { kind: 'customer', customerId: principal.id };
  throw ApiError.forbidden("This credential lacks the 'orders:write' permission");
}

/** The orders a reach covers, as a condition on `orders`. */
export function orderCondition(reach: OrderReach): SQL | undefined {
  if (reach.kind === 'customer') return eq(orders.customerId, reach.customerId);
  if (reach.kind === 'vendor') return vendorOrderCondition(reach.vendorId);
  return undefined;
}

const vendorOrderCondition = (vendorId: string) => sql`EXISTS (SELECT 1 FROM ${orderLines} WHERE ${orderLines.orderId} = ${orders.id} AND ${orderLines.vendorId} = ${vendorId})`;

/** The lines a reach shows of the orders it covers. */
export function lineCondition(reach: OrderReach): SQL | undefined {
  return reach.kind === 'vendor' ? eq(orderLines.vendorId, reach.vendorId) : undefined;
}
