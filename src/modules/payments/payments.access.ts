import { sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { orders } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { hasPermission, isStaff, type Principal, vendorScope, credentialNeeded } from '../../lib/access';

/**
 * Which payments a caller reads, as a condition on an order-id column (undefined: all of them).
 * Staff with `payments:read` or `payments:write` read every payment; a signed-in customer reads the
 * payments of its own orders only (any other is 404, as an unknown one); API keys without the
 * permission get 403. A vendor caller gets 403 whatever it holds, checked first as for orders
 * (orders.access.ts): a payment is the whole order's money, never one vendor's.
 */
export function paymentReach(principal: Principal, orderId: SQLiteColumn): SQL | undefined {
  if (principal.kind === 'anonymous') throw credentialNeeded(principal);
  if (vendorScope(principal)) throw ApiError.forbidden("Vendor users and keys cannot read payments: a payment is the whole order's, not one vendor's");
  if (isStaff(principal, 'payments')) return undefined;
  if (principal.kind === 'api_key') throw ApiError.forbidden("This credential lacks the 'payments:read' permission");
  return sql`${orderId} IN (SELECT ${orders.id} FROM ${orders} WHERE ${orders.customerId} = ${principal.id})`;
}

/**
 * Which orders a caller may start a payment on, as a condition on orders.id (undefined: any).
 * `payments:write` pays any order with any provider; a signed-in customer may start a card payment
 * (a provider other than `manual`, which records money as taken) of its own orders only (any other
 * is 404); anyone else gets 403.
 */
export function payerReach(principal: Principal, provider: string): SQL | undefined {
  if (principal.kind === 'anonymous') throw credentialNeeded(principal);
  if (hasPermission(principal, 'payments:write')) return undefined;
  if (principal.kind !== 'user' || vendorScope(principal) || isStaff(principal, 'payments') || provider === 'manual')
    throw ApiError.forbidden("This credential lacks the 'payments:write' permission");
  return sql`${orders.customerId} = ${principal.id}`;
}
