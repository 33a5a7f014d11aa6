import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type OrderRow, orderLines, products, refundLines } from '../../db/schema';
import { giftCardSecret } from './gift-card-code';
import { issueStatements } from './gift-card-issue';
import { roundHalfUp } from '../checkout';
import type { Vars } from '../../config';

export type GiftCardSettings = Pick<Vars, 'JWT_SECRET'>;

/**
 * `total` minor units split over `units` in whole minor units that add up to it exactly: unit k
 * gets round(total·k/units) − round(total·(k−1)/units), rounding half up, so every unit gets the
 * total's share rounded down or up and none goes below zero (a 100.00 line of 3: 33.33, 33.34, 33.33).
 */
export function unitValues(total: number, units: number): number[] {
  const upTo = (k: number) => roundHalfUp(BigInt(total) * BigInt(k), units);
  return Array.from({ length: units }, (_, i) => upTo(i + 1) - upTo(i));
}

/**
 * The statements issuing the cards an order bought, for the batch that moves it to `processing`
 * (paid in full): one card per unit of each line of a gift-card product, for the order's email, in
 * the order's currency, worth what was paid for that unit (docs/gift-cards.md, Rules). What was paid
 * for a line is its `total`: its subtotal less every discount the order gave it (promotions, the
 * code's, buy-x-get-y, an order-wide discount's share: pricing puts each on the lines), plus its tax
 * when tax is added on top. The total is split over the units in whole minor units (unitValues), so
 * the cards add up to the line exactly and a card bought in a sale is worth the sale price, never
 * the list price: a card paid with such a card cannot grow. Units refunded before the order was
 * paid in full (a refund by line of a partly paid order) issue nothing, and the rest of the line
 * is split over the units left. A unit that cost nothing issues no card.
 *
 * The order can reach `processing` only once (the status trigger aborts a second batch), so the
 * cards are issued once; their ids are derived from the line (`gc_<orderLineId>_<unit>`), so a card
 * is also traceable to the unit that bought it.
 */
export async function boughtGiftCardStatements(db: Database, env: GiftCardSettings, order: OrderRow, now = new Date()) {
  const lines = await db
    .select({
      id: orderLines.id,
      quantity: orderLines.quantity,
      total: orderLines.total,
      quantityRefunded: orderLines.quantityRefunded,
      amountRefunded: sql<number>`(SELECT coalesce(sum(rl.amount), 0) FROM ${refundLines} AS rl WHERE rl.order_line_id = ${orderLines.id})`,
    })
    .from(orderLines)
    .innerJoin(products, eq(products.id, orderLines.productId))
    .where(and(eq(orderLines.orderId, order.id), eq(products.giftCard, true)));
  const units = lines.flatMap((line) => {
    const left = line.quantity - line.quantityRefunded;
    if (left <= 0) return [];
    return unitValues(Math.max(line.total - line.amountRefunded, 0), left).map((amount, i) => ({ line: line.id, unit: line.quantityRefunded + i + 1, amount }));
  });
  const paidFor = units.filter((u) => u.amount > 0);
  if (!paidFor.length) return [];
  const secret = giftCardSecret(env);
  const issued = await Promise.all(
    paidFor.map(({ line, unit, amount }) =>
      issueStatements(
        db,
        secret,
        {
          id: `gc_${line}_${unit}`,
          amount,
          currency: order.currency,
          recipientEmail: order.email,
          customerId: order.customerId,
          orderId: order.id,
          orderLineId: line,
          issuedBy: 'system',
        },
        order.minorUnits,
        now,
      ),
    ),
  );
  return issued.flatMap((card) => card.statements);
}
