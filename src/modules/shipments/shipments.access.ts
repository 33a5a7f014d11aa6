import { sql, type SQL } from 'drizzle-orm';
import { orderLines, orders, shipmentLines, shipments } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { isStaff, type Principal, vendorScope, credentialNeeded } from '../../lib/access';
import { ALL_ORDERS, type OrderReach } from '../orders';

/**
 * Which shipments a caller reads, as the reach of their orders (orders.access.ts). Staff with
 * `shipments:*` or `orders:*` (read or write): every shipment. A signed-in customer: those of its own
 * orders. A vendor user (or a key of the vendor role): only the shipments carrying one of its
 * vendor's lines, and in them only those lines, so another vendor's parcel and tracking number stay
 * out of sight. Another's is 404; an API key with neither permission is 403.
 */
export function shipmentReach(principal: Principal): OrderReach {
  if (principal.kind === 'anonymous') throw credentialNeeded(principal);
  const vendorId = vendorScope(principal);
  if (vendorId) return { kind: 'vendor', vendorId };
  if (isStaff(principal, 'shipments') || isStaff(principal, 'orders')) return ALL_ORDERS;
  if (principal.kind === 'api_key') throw ApiError.forbidden("This credential lacks the 'shipments:read' permission");
  return { kind: 'customer', customerId: principal.id };
}

/** The shipments a reach covers, as a condition on `shipments`. */
export function shipmentCondition(reach: OrderReach): SQL | undefined {
  if (reach.kind === 'customer') return sql`${shipments.orderId} IN (SELECT ${orders.id} FROM ${orders} WHERE ${orders.customerId} = ${reach.customerId})`;
  if (reach.kind === 'vendor') return sql`EXISTS (SELECT 1 FROM ${shipmentLines} WHERE ${shipmentLines.shipmentId} = ${shipments.id} AND ${vendorLine(reach.vendorId)})`;
  return undefined;
}

/** The lines a reach shows of the shipments it covers, as a condition on `shipment_lines`. */
export function shipmentLineCondition(reach: OrderReach): SQL | undefined {
  return reach.kind === 'vendor' ? vendorLine(reach.vendorId) : undefined;
}

const vendorLine = (vendorId: string) => sql`${shipmentLines.orderLineId} IN (SELECT ${orderLines.id} FROM ${orderLines} WHERE ${orderLines.vendorId} = ${vendorId})`;
