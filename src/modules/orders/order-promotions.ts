import type { OrderRow } from '../../db/schema';
import { toMajor } from '../../lib/money';

/** The promotions an order kept, in major units: as the order's representation and `order.placed` show them. */
export function orderPromotions(order: Pick<OrderRow, 'promotions' | 'minorUnits'>) {
  return order.promotions.map((p) => ({ ...p, amount: toMajor(p.amount, order.minorUnits), shippingAmount: toMajor(p.shippingAmount, order.minorUnits) }));
}
