import { and, eq, ne, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type OrderRow, orderLines, refundLines, refunds } from '../../db/schema';
import { GUARDS } from '../../lib/db-guards';
import { ApiError } from '../../lib/errors';
import { toMajor } from '../../lib/money';
import { amountInMinor } from './amounts';
import { roundHalfUp } from '../checkout';

/**
 * What a refund by line pays back (docs/refunds.md): for each line, what was paid for the units
 * refunded. A line's `total` is what checkout charged for it (its subtotal less its share of the
 * discount, plus its tax when added on top; with tax inside the prices, the tax is inside it), so
 * q of its n units are worth total x q / n, rounded half up to the minor unit, except the last
 * units of a line, which take exactly what is left of its total: refunding every unit, at once or
 * one at a time, gives back the line's total to the cent. Shipping is refunded the same way: what
 * was charged for it (with its tax when added on top) less what earlier refunds gave back of it.
 * Refunds in progress (pending) count; a failed refund gives its units back (settle.ts).
 */

export interface RefundLineInput {
  orderLineId: string;
  quantity: number;
}

export interface LineRefund {
  orderLineId: string;
  quantity: number;
  /** Minor units. */
  amount: number;
  /** The line's refunded units when this was worked out: the refund is written only if it is still so. */
  quantityRefundedBefore: number;
  /** These are the line's last units not refunded (a gift-card line's cards give up all they have left). */
  last: boolean;
}

export interface RefundByLines {
  lines: LineRefund[];
  /** Minor units of shipping refunded. */
  shipping: number;
  /** Shipping already refunded when this was worked out (written only if still so). */
  shippingRefundedBefore: number;
}

/** q of a line's n units, of its total `total` of which `refunded` is already given back for `refundedUnits` units. */
export function lineRefundAmount(line: { quantity: number; total: number }, quantity: number, refundedUnits: number, refunded: number): number {
  if (refundedUnits + quantity >= line.quantity) return line.total - refunded;
  return roundHalfUp(BigInt(line.total) * BigInt(quantity), line.quantity);
}

/** Shipping the order charged, with its tax when tax is added on top. */
export const shippingCharged = (order: Pick<OrderRow, 'shippingTotal' | 'shippingTax' | 'pricesIncludeTax'>) =>
  order.shippingTotal + (order.pricesIncludeTax ? 0 : order.shippingTax);

const notFailed = (orderId: string) => and(eq(refunds.orderId, orderId), ne(refunds.status, 'failed'));

/** Works out a refund by line (and shipping) of `order`: 422 for a line not of the order, 409 for more units or shipping than are left. */
export async function refundByLines(db: Database, order: OrderRow, lines: RefundLineInput[], shipping: true | number | undefined): Promise<RefundByLines> {
  const [rows, shippingRows] = await db.batch([
    db
      .select({
        id: orderLines.id,
        quantity: orderLines.quantity,
        total: orderLines.total,
        quantityRefunded: orderLines.quantityRefunded,
        amountRefunded: sql<number>`(SELECT coalesce(sum(${refundLines.amount}), 0) FROM ${refundLines} WHERE ${refundLines.orderLineId} = ${orderLines.id})`,
      })
      .from(orderLines)
      .where(eq(orderLines.orderId, order.id)),
    db
      .select({ refunded: sql<number>`coalesce(sum(${refunds.shippingAmount}), 0)` })
      .from(refunds)
      .where(notFailed(order.id)),
  ]);
  const worked = lines.map((input, i): LineRefund => {
    const line = rows.find((r) => r.id === input.orderLineId);
    if (!line) throw ApiError.validation([{ field: `lines.${i}.orderLineId`, problem: `is not a line of order '${order.id}'`, code: 'not_found' }]);
    const left = line.quantity - line.quantityRefunded;
    if (input.quantity > left) throw ApiError.conflict(`${GUARDS.overrefunded_line}: ${left} of line '${line.id}' left to refund`, `lines.${i}.quantity`);
    return {
      orderLineId: line.id,
      quantity: input.quantity,
      amount: lineRefundAmount(line, input.quantity, line.quantityRefunded, line.amountRefunded),
      quantityRefundedBefore: line.quantityRefunded,
      last: line.quantityRefunded + input.quantity >= line.quantity,
    };
  });
  const shippingRefundedBefore = shippingRows[0]?.refunded ?? 0;
  const shippingLeft = shippingCharged(order) - shippingRefundedBefore;
  const shippingAmount = shipping === undefined ? 0 : shipping === true ? shippingLeft : amountInMinor(shipping, order.minorUnits, 'shipping');
  if (shippingAmount > shippingLeft)
    throw ApiError.conflict(`More shipping than is left to refund (${toMajor(Math.max(shippingLeft, 0), order.minorUnits)} ${order.currency})`, 'shipping');
  return { lines: worked, shipping: shippingAmount, shippingRefundedBefore };
}

/** SQL true while nothing was refunded of these lines and shipping since `refundByLines` read them: a concurrent refund makes the write answer 409. */
export function unchangedSince(order: Pick<OrderRow, 'id'>, worked: RefundByLines): SQL {
  const conditions = worked.lines.map(
    (l) => sql`(SELECT ${orderLines.quantityRefunded} FROM ${orderLines} WHERE ${orderLines.id} = ${l.orderLineId}) = ${l.quantityRefundedBefore}`,
  );
  if (worked.shipping > 0)
    conditions.push(sql`(SELECT coalesce(sum(${refunds.shippingAmount}), 0) FROM ${refunds} WHERE ${notFailed(order.id)}) = ${worked.shippingRefundedBefore}`);
  return conditions.length ? sql.join(conditions, sql` AND `) : sql`1`;
}
