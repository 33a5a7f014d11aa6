import type { OrderRow } from '../../db/schema';
import { toMajor } from '../../lib/money';
import { orderEventData } from '../ledger';
import { type ShippingMethodColumns, shippingMethodOf } from './order-shipping';
import { orderPromotions } from './order-promotions';

/** `order.placed` also says how the order ships (the method as the order keeps it), how it was taxed and what promotions took off. */
export function placedEventData(order: Parameters<typeof orderEventData>[0] & ShippingMethodColumns & Pick<OrderRow, 'taxTotal' | 'pricesIncludeTax' | 'promotions'>) {
  return {
    ...orderEventData(order),
    taxTotal: toMajor(order.taxTotal, order.minorUnits),
    pricesIncludeTax: order.pricesIncludeTax,
    shippingMethod: shippingMethodOf(order),
    promotions: orderPromotions(order),
  };
}
