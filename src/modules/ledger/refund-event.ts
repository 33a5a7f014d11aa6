import type { OrderRow, RefundRow } from '../../db/schema';
import { toMajor } from '../../lib/money';
import { orderNumberOf } from './order-status';
import type { EventData } from '../../lib/events';

/** What `refund.created` and `payment.refunded` say of a refund (payments.events.ts). */
export function refundEventData(
  refund: Pick<RefundRow, 'id' | 'paymentId' | 'amount' | 'currency' | 'destination' | 'returnId' | 'shippingAmount'>,
  order: Pick<OrderRow, 'id' | 'number' | 'minorUnits'>,
  lines: { orderLineId: string; quantity: number; amount: number }[],
): EventData<'payment.refunded'> {
  const digits = order.minorUnits;
  return {
    refundId: refund.id,
    paymentId: refund.paymentId,
    orderId: order.id,
    orderNumber: orderNumberOf(order),
    amount: toMajor(refund.amount, digits),
    currency: refund.currency,
    destination: refund.destination,
    returnId: refund.returnId,
    shippingAmount: toMajor(refund.shippingAmount, digits),
    lines: lines.map((l) => ({ orderLineId: l.orderLineId, quantity: l.quantity, amount: toMajor(l.amount, digits) })),
  };
}

/** `refund.created`'s data: the refund as it was made. */
export const refundCreatedData = (
  refund: RefundRow,
  order: Pick<OrderRow, 'id' | 'number' | 'minorUnits'>,
  lines: { orderLineId: string; quantity: number; amount: number }[],
) => ({
  ...refundEventData(refund, order, lines),
  status: refund.status as 'pending' | 'completed',
  reason: refund.reason,
});
