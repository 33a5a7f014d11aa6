import type { OrderRow } from '../../db/schema';
import { toMajor } from '../../lib/money';

export type ShippingMethodColumns = Pick<OrderRow, 'shippingMethodId' | 'shippingMethodName' | 'shippingMethodCarrier' | 'shippingTotal' | 'minorUnits'>;

/**
 * The shipping method an order ships by, as it was when the order was placed (its own columns, never
 * read again from the method, which may have changed or gone since); its amount is the order's
 * shipping charge. Null for an order placed without one (no zones, or before zones existed).
 */
export function shippingMethodOf(order: ShippingMethodColumns) {
  if (order.shippingMethodId === null) return null;
  return { id: order.shippingMethodId, name: order.shippingMethodName ?? '', carrier: order.shippingMethodCarrier, amount: toMajor(order.shippingTotal, order.minorUnits) };
}
