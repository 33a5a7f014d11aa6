import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { giftCards, orderLines, type OrderRow, orders, refundLines, refunds } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { toMajor } from '../../lib/money';

/**
 * Money paid for gift cards an order issued goes back only with the cards: by a refund of their
 * lines, which takes it off them (revoke-bought-cards.ts). Any other refund (an amount, or other
 * lines with staff's override of what they are worth) may give back at most what the order was
 * paid beyond what its cards still hold, checked inside the refund's insert so that concurrent
 * refunds cannot together reach the cards' money. Otherwise an order of one gift card, refunded by
 * amount, would leave the card whole.
 */

// Each is a scalar subquery of its own, with aliases: Drizzle writes a one-table select's columns
// unqualified, so a correlated name would bind to the wrong table.

/** What an order's issued cards still hold of what was paid for them: their lines' totals less what refunds by line gave back of them (pending ones too). */
const heldByCards = (orderId: string) =>
  sql<number>`(SELECT coalesce(sum(max(ol.total - (SELECT coalesce(sum(rl.amount), 0) FROM ${refundLines} AS rl WHERE rl.order_line_id = ol.id), 0)), 0)
    FROM ${orderLines} AS ol WHERE ol.order_id = ${orderId}
    AND EXISTS (SELECT 1 FROM ${giftCards} AS g WHERE g.order_id = ${orderId} AND g.order_line_id = ol.id))`;

/** What the order's refunds have given back or are giving back (pending). */
const refundedOrPending = (orderId: string) =>
  sql<number>`(SELECT o.amount_refunded + (SELECT coalesce(sum(r.amount), 0) FROM ${refunds} AS r WHERE r.order_id = o.id AND r.status = 'pending')
    FROM ${orders} AS o WHERE o.id = ${orderId})`;

const paid = (orderId: string) => sql<number>`(SELECT o.amount_paid FROM ${orders} AS o WHERE o.id = ${orderId})`;

export interface CardValueRefund {
  /** Minor units the refund gives back. */
  amount: number;
  /** Of which, what its lines that issued cards are worth: those cards give it up in the same batch. */
  cardLinesAmount: number;
  /** The refund's lines, and how many cards they had issued when read: a card issued since fails the write. */
  lines: string[];
  cardsRead: number;
}

/** SQL true while the refund leaves the order's cards what they hold: for the refund's INSERT ... WHERE. */
export function leavesCardValue(orderId: string, refund: CardValueRefund) {
  const sameCards = refund.lines.length
    ? sql` AND (SELECT count(*) FROM ${giftCards} AS g WHERE g.order_id = ${orderId} AND g.order_line_id IN (${sql.join(
        refund.lines.map((id) => sql`${id}`),
        sql`, `,
      )})) = ${refund.cardsRead}`
    : sql``;
  return sql`(${refundedOrPending(orderId)} + ${refund.amount} - ${refund.cardLinesAmount} <= ${paid(orderId)} - ${heldByCards(orderId)})${sameCards}`;
}

/** Why leavesCardValue refused a refund, read again: the 409 naming the cards' money, or null when that was not the reason. */
export async function cardValueRefusal(db: Database, order: Pick<OrderRow, 'id' | 'minorUnits' | 'currency'>, refund: CardValueRefund): Promise<ApiError | null> {
  const [row] = await db
    .select({ paid: paid(order.id), refunded: refundedOrPending(order.id), held: heldByCards(order.id) })
    .from(orders)
    .where(eq(orders.id, order.id));
  if (!row || row.held === 0) return null;
  const room = row.paid - row.held - row.refunded;
  if (row.refunded + refund.amount - refund.cardLinesAmount <= row.paid - row.held) return null;
  const money = (minor: number) => `${toMajor(minor, order.minorUnits)} ${order.currency}`;
  return ApiError.conflict(
    `${money(row.held)} of order '${order.id}' paid for gift cards it issued, which still hold it: that is refunded only by refunding their lines (which takes it off the cards); ${money(Math.max(room, 0))} is left to refund beyond them`,
    'amount',
  );
}
