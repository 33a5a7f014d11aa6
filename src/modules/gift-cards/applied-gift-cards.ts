import { asc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { cartGiftCards, type GiftCardRow, giftCards } from '../../db/schema';
import { toMajor } from '../../lib/money';
import { unusableBecause } from './code-attempts';
import { amountDue } from '../ledger';

// What the cart view shows of the gift cards applied to it (read in the batch that reads the cart).

/** The cards applied to a cart, oldest first: a statement for the batch that reads the cart. */
export function appliedCardsOf(db: Database, cartId: string) {
  return db
    .select({ card: giftCards })
    .from(cartGiftCards)
    .innerJoin(giftCards, eq(giftCards.id, cartGiftCards.giftCardId))
    .where(eq(cartGiftCards.cartId, cartId))
    .orderBy(asc(cartGiftCards.createdAt), asc(cartGiftCards.giftCardId));
}

/**
 * What each applied card would pay of `total` (minor units), in the order applied: its balance, up
 * to what is left; 0 for a card that cannot pay now (with why). `amountDue` is what is left after them.
 */
export function giftCardsView(cards: readonly { card: GiftCardRow }[], total: number, currency: string, digits: number, now = new Date()) {
  let paid = 0;
  const applied = cards.map(({ card }) => {
    const problem = unusableBecause(card, currency, now);
    const amount = problem ? 0 : Math.min(card.balance, amountDue({ total, amountPaid: paid }));
    paid += amount;
    return { id: card.id, last4: card.last4, balance: toMajor(card.balance, digits), amount: toMajor(amount, digits), problem };
  });
  return { giftCards: applied, amountDue: toMajor(amountDue({ total, amountPaid: paid }), digits) };
}
