import { eq, type SQL, sql } from 'drizzle-orm';
import { orderLines, returnLines, returns } from '../../db/schema';
import { credentialNeeded, hasPermission, type Principal, vendorScope } from '../../lib/access';
import { ApiError } from '../../lib/errors';
import { type OrderReach, readReach } from '../orders/orders.access';

/**
 * Who reaches which returns, as the reach of their orders (orders.access.ts): staff with `orders:read`
 * or `orders:write` every return; a vendor user (or a key of the vendor role) only the returns holding
 * one of its vendor's lines, and in them only those lines; a signed-in customer its own. Another's is
 * 404. Returns use the orders permissions: the built-in roles are rows a migration seeds, so a
 * `returns:*` permission would reach no vendor without one.
 */
export const returnReach = readReach;

/** What a caller may do to a return: `staff` (`orders:write`), `customer` (its own), or nothing (403). */
export type ReturnWriter = { kind: 'staff' } | { kind: 'customer'; customerId: string };

export function returnWriter(principal: Principal): ReturnWriter {
  if (principal.kind === 'anonymous') throw credentialNeeded(principal);
  if (vendorScope(principal)) throw ApiError.forbidden('Vendor users cannot request or change returns');
  if (hasPermission(principal, 'orders:write')) return { kind: 'staff' };
  if (principal.kind === 'user') return { kind: 'customer', customerId: principal.id };
  throw ApiError.forbidden("This credential lacks the 'orders:write' permission");
}

/** The returns a reach covers, as a condition on `returns`. */
export function returnCondition(reach: OrderReach): SQL | undefined {
  if (reach.kind === 'customer') return eq(returns.customerId, reach.customerId);
  if (reach.kind === 'vendor') return sql`EXISTS (SELECT 1 FROM ${returnLines} WHERE ${returnLines.returnId} = ${returns.id} AND ${vendorLine(reach.vendorId)})`;
  return undefined;
}

/** The lines a reach shows of the returns it covers, as a condition on `return_lines`. */
export function returnLineCondition(reach: OrderReach): SQL | undefined {
  return reach.kind === 'vendor' ? vendorLine(reach.vendorId) : undefined;
}

const vendorLine = (vendorId: string) => sql`${returnLines.orderLineId} IN (SELECT ${orderLines.id} FROM ${orderLines} WHERE ${orderLines.vendorId} = ${vendorId})`;
