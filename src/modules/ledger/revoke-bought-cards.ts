import { and, eq, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type GiftCardRow, giftCards, giftCardTransactions, type OrderRow } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { ID_PREFIX } from '../../lib/ids';
import { insertWhere } from '../../lib/insert-where';
import { toMajor } from '../../lib/money';

/**
 * Giving back the money paid for a gift-card line takes the cards it issued back (docs/gift-cards.md,
 * Rules). Each card bought is worth what was paid for its unit (bought-gift-cards.ts); a refund by line
 * (and so a return's refund, or an exchange) of a line's units takes what it gives back for them off
 * the line's cards, in the order of their units, as `revoked` transactions written in the refund's
 * own batch, and disables a card left with nothing. The trigger on gift_card_transactions refuses
 * to take a card below zero, so when the holder spent a card first, the whole refund is refused (409
 * naming the card), and a refund racing a spend of the same card cannot both take its value: the
 * database lets one of them through. The refund of a line's last units takes whatever is left of
 * its cards' value, so refunding a whole line, at once or unit by unit, leaves its cards nothing.
 */

/** Transactions that take a bought card's value back, and that give it back when the refund failed. */
export const REVOKED = 'revoked';
export const REINSTATED = 'reinstated';

/**
 * What refunds have taken back so far of the card of the enclosing query (FROM gift_cards): revoked
 * less reinstated, minor units. Spelt with aliases: Drizzle writes a one-table select's columns
 * unqualified, and an unqualified `id` inside the subquery would be the transaction's.
 */
const takenBack = sql<number>`(SELECT coalesce(-sum(t.amount), 0) FROM ${giftCardTransactions} AS t
    WHERE t.gift_card_id = gift_cards.id AND t.kind IN (${REVOKED}, ${REINSTATED}))`;

/** A card's unit, from its id (`gc_<orderLineId>_<unit>`, bought-gift-cards.ts). */
const unitOf = (card: Pick<GiftCardRow, 'id'>) => Number(card.id.slice(card.id.lastIndexOf('_') + 1));

export interface BoughtCard {
  card: GiftCardRow;
  /** What of its issued value no refund has taken back yet. */
  unrevoked: number;
}

/** The cards these lines of the order issued, by line, in the order of their units, each with what is left to take back. */
export async function boughtCardsOf(db: Database, orderId: string, lineIds: string[]): Promise<Map<string, BoughtCard[]>> {
  const rows = lineIds.length
    ? await db
        .select({ card: giftCards, takenBack })
        .from(giftCards)
        .where(and(eq(giftCards.orderId, orderId), inArray(giftCards.orderLineId, lineIds)))
    : [];
  const byLine = new Map<string, BoughtCard[]>();
  for (const { card, takenBack: taken } of rows.sort((a, b) => unitOf(a.card) - unitOf(b.card))) {
    byLine.set(card.orderLineId!, [...(byLine.get(card.orderLineId!) ?? []), { card, unrevoked: Math.max(card.initialAmount - taken, 0) }]);
  }
  return byLine;
}

/** Units of a line refunded, with what the refund gives back for them. */
export interface RefundedUnits {
  orderLineId: string;
  /** Minor units given back for them (what was paid for them: refund-lines.ts). */
  amount: number;
  /** They are the line's last units not refunded yet. */
  last: boolean;
}

export interface CardTake {
  card: GiftCardRow;
  /** Minor units taken off the card. */
  amount: number;
}

/** What each card of the refunded lines gives up: the refunded amount from its line's cards in unit order, all that is left for a line's last units. */
export async function cardsToRevoke(
  db: Database,
  order: Pick<OrderRow, 'id'>,
  refunded: RefundedUnits[],
): Promise<{ takes: CardTake[]; cardLines: Set<string>; cardsRead: number }> {
  const byLine = await boughtCardsOf(
    db,
    order.id,
    refunded.map((r) => r.orderLineId),
  );
  const takes: CardTake[] = [];
  for (const units of refunded) {
    let left = units.last ? Number.POSITIVE_INFINITY : units.amount;
    for (const { card, unrevoked } of byLine.get(units.orderLineId) ?? []) {
      const amount = Math.min(unrevoked, left);
      if (amount <= 0) continue;
      takes.push({ card, amount });
      left -= amount;
    }
  }
  return { takes, cardLines: new Set(byLine.keys()), cardsRead: [...byLine.values()].reduce((n, cards) => n + cards.length, 0) };
}

/** The 409 for a card its holder spent before its value could be taken back. */
export function spentCard(
  card: Pick<GiftCardRow, 'last4' | 'balance' | 'currency'>,
  amount: number,
  digits: number,
  { what, by = 'line', field = 'lines' }: { what: string; by?: 'line' | 'order'; field?: string },
): ApiError {
  const money = (minor: number) => `${toMajor(minor, digits)} ${card.currency}`;
  return ApiError.conflict(
    `Gift card ****${card.last4} issued by this ${by} has been spent: it holds ${money(card.balance)} of the ${money(amount)} ${what} would take back from it`,
    field,
    { problem: `gift card ****${card.last4} it issued has been spent` },
  );
}

/** 409 when a card holds less than is to be taken off it (as read; the batch's trigger decides). */
export function refuseSpentCards(takes: CardTake[], digits: number, what = 'this refund'): void {
  const short = takes.find((t) => t.card.balance < t.amount);
  if (short) throw spentCard(short.card, short.amount, digits, { what });
}

/**
 * 409 when units of a gift-card line asked back (a return) come from cards their holder has spent:
 * the cards of the line's next units not taken back yet must each still hold what is left of their
 * value. A courtesy at request time: the refund that settles the return is where the database decides.
 */
export async function refuseReturnOfSpentCards(db: Database, order: Pick<OrderRow, 'id' | 'minorUnits'>, lines: { orderLineId: string; quantity: number }[]): Promise<void> {
  const byLine = await boughtCardsOf(
    db,
    order.id,
    lines.map((l) => l.orderLineId),
  );
  const takes = lines.flatMap((l) =>
    (byLine.get(l.orderLineId) ?? [])
      .filter((c) => c.unrevoked > 0)
      .slice(0, l.quantity)
      .map(({ card, unrevoked }) => ({ card, amount: unrevoked })),
  );
  refuseSpentCards(takes, order.minorUnits, 'returning it');
}

/** After the balance trigger refused the batch: the card spent meanwhile, read again (or a plain 409 if none is short now). */
export async function spentMeanwhile(db: Database, takes: CardTake[], digits: number, what = 'this refund'): Promise<ApiError> {
  const ids = takes.map((t) => t.card.id);
  const fresh = ids.length ? await db.select().from(giftCards).where(inArray(giftCards.id, ids)) : [];
  const byId = new Map(fresh.map((c) => [c.id, c]));
  const short = takes.find((t) => (byId.get(t.card.id)?.balance ?? 0) < t.amount);
  return short ? spentCard(byId.get(short.card.id) ?? short.card, short.amount, digits, { what }) : ApiError.conflict('A gift card this order issued changed meanwhile; try again');
}

/** The id of the `revoked` transaction of `card` by refund `refundId` (a failed refund finds them by it). */
const revokedId = (refundId: string, cardId: string) => `${ID_PREFIX.giftCardTransaction}_${refundId}_${cardId}`;
/** The `revoked` transactions of refund `refundId`, as `t` (gift_card_transactions AS t). */
const ofRefund = (refundId: string) => {
  const prefix = `${ID_PREFIX.giftCardTransaction}_${refundId}_`;
  return sql`substr(t.id, 1, ${prefix.length}) = ${prefix} AND t.kind = ${REVOKED}`;
};

/**
 * For the refund's batch, each only when `written` holds (the refund row was inserted): the
 * `revoked` transactions (the trigger aborts the batch when a card holds less), then every card
 * they left at nothing disabled.
 */
export function revocationStatements(
  db: Database,
  takes: CardTake[],
  { refundId, order, actor, now, written }: { refundId: string; order: Pick<OrderRow, 'id'>; actor: string; now: Date; written: SQL },
) {
  if (!takes.length) return [];
  const ts = now.toISOString();
  return [
    ...takes.map(({ card, amount }) =>
      insertWhere(
        db,
        giftCardTransactions,
        { id: revokedId(refundId, card.id), giftCardId: card.id, amount: -amount, balanceAfter: 0, kind: REVOKED, orderId: order.id, paymentId: null, actor, createdAt: ts },
        written,
      ),
    ),
    db
      .update(giftCards)
      .set({ status: 'disabled', updatedAt: ts })
      .where(
        and(
          inArray(
            giftCards.id,
            takes.map((t) => t.card.id),
          ),
          eq(giftCards.balance, 0),
          written,
        ),
      ),
  ];
}

/**
 * For the batch recording a refund as failed: what it took off cards goes back to them
 * (`reinstated`), and a card it had emptied (and so disabled) is active again.
 */
export function reinstatementStatements(db: Database, refundId: string, now: Date) {
  const ts = now.toISOString();
  const t = giftCardTransactions;
  return [
    db
      .update(giftCards)
      .set({ status: 'active', updatedAt: ts })
      .where(and(eq(giftCards.status, 'disabled'), sql`${giftCards.id} IN (SELECT t.gift_card_id FROM ${t} AS t WHERE ${ofRefund(refundId)} AND t.balance_after = 0)`)),
    db
      .insert(giftCardTransactions)
      .select(sql`SELECT t.id || '_back', t.gift_card_id, -t.amount, 0, ${REINSTATED}, t.order_id, NULL, 'system', ${ts} FROM ${t} AS t WHERE ${ofRefund(refundId)}`),
  ];
}

/**
 * For a cancellation's batch: whatever the order's bought cards still hold of their value is taken
 * back (money given back outside a refund by line, at the provider, leaves it on them), and a card
 * left with nothing disabled; a card spent meanwhile aborts the cancellation (the balance trigger).
 */
export function cancellationRevocations(db: Database, order: Pick<OrderRow, 'id'>, actor: string, now: Date) {
  const ts = now.toISOString();
  const g = giftCards;
  const left = sql`${g.initialAmount} - ${takenBack}`;
  const bought = and(eq(g.orderId, order.id), isNotNull(g.orderLineId));
  return [
    db
      .insert(giftCardTransactions)
      .select(
        sql`SELECT ${`${ID_PREFIX.giftCardTransaction}_cancel_`} || ${g.id}, ${g.id}, -(${left}), 0, ${REVOKED}, ${g.orderId}, NULL, ${actor}, ${ts} FROM ${g} WHERE ${bought} AND ${left} > 0`,
      ),
    db
      .update(giftCards)
      .set({ status: 'disabled', updatedAt: ts })
      .where(and(bought, eq(g.balance, 0))),
  ];
}

/** The 409 for a cancellation the balance trigger refused: which card of the order was spent. */
export async function spentCardOfOrder(db: Database, order: Pick<OrderRow, 'id' | 'minorUnits'>): Promise<ApiError> {
  const cards = await db
    .select({ card: giftCards, takenBack })
    .from(giftCards)
    .where(and(eq(giftCards.orderId, order.id), isNotNull(giftCards.orderLineId)));
  const short = cards.find(({ card, takenBack: taken }) => card.balance < card.initialAmount - taken);
  if (!short) return ApiError.conflict('A gift card this order issued changed meanwhile; try again');
  return spentCard(short.card, short.card.initialAmount - short.takenBack, order.minorUnits, { what: 'cancelling the order', by: 'order', field: 'status' });
}
