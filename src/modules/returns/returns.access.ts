import { eq, type SQL, sql } from 'drizzle-orm';
import { orderLines, returnLines, returns } from '../../db/schema';
import { credentialNeeded, hasPermission, isStaff, type Principal, vendorScope } from '../../lib/access';
import { ApiError } from '../../lib/errors';
import { ALL_ORDERS, type OrderReach } from '../orders';

/**
 * Who reaches which returns: staff with `returns:read` or `returns:write` every return; a signed-in
 * customer its own (another's is 404). Returns move money, so a vendor's credential is refused (403)
 * whatever it holds, as it is for payments (docs/security.md, "What each permission reaches").
 */
export function returnReach(principal: Principal): OrderReach {
  if (principal.kind === 'anonymous') throw credentialNeeded(principal);
  if (vendorScope(principal)) throw ApiError.forbidden('Vendor users cannot read or change returns');
  if (isStaff(principal, 'returns')) return ALL_ORDERS;
  if (principal.kind === 'user') return { kind: 'customer', customerId: principal.id };
  throw ApiError.forbidden("This credential lacks the 'returns:read' permission");
}

/** What a caller may do to a return: `staff` (`returns:write`), `customer` (its own), or nothing (403). */
export type ReturnWriter = { kind: 'staff' } | { kind: 'customer'; customerId: string };

export function returnWriter(principal: Principal): ReturnWriter {
  if (principal.kind === 'anonymous') throw credentialNeeded(principal);
  if (vendorScope(principal)) throw ApiError.forbidden('Vendor users cannot read or change returns');
  if (hasPermission(principal, 'returns:write')) return { kind: 'staff' };
  if (principal.kind === 'user') return { kind: 'customer', customerId: principal.id };
  throw ApiError.forbidden("This credential lacks the 'returns:write' permission");
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
