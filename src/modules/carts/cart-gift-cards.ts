import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type CartRow, cartGiftCards, type OrderRow, orders } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { assertActive } from './carts.service';
import { assertUsable, cardByCode, unusableBecause, appliedCardsOf } from '../gift-cards';
import { type GiftCardSettings, spendGiftCard } from '../ledger';

/**
 * Gift cards applied to a cart: opened by their code (locked out like sign-in), kept on the cart in
 * the order applied (shown by ./applied-gift-cards.ts), and spent by checkout after the order is placed.
 */

export async function applyGiftCard(db: Database, cart: CartRow, code: string, network: string, now = new Date()): Promise<void> {
  assertActive(cart);
  const card = await cardByCode(db, code, network, now);
  assertUsable(card, cart.currency, now);
  await db.insert(cartGiftCards).values({ cartId: cart.id, giftCardId: card.id, createdAt: now.toISOString() }).onConflictDoNothing();
}

export async function removeGiftCard(db: Database, cart: CartRow, giftCardId: string): Promise<void> {
  assertActive(cart);
  const removed = await db
    .delete(cartGiftCards)
    .where(and(eq(cartGiftCards.cartId, cart.id), eq(cartGiftCards.giftCardId, giftCardId)))
    .returning({ id: cartGiftCards.giftCardId });
  if (!removed.length) throw ApiError.notFound('Gift card on this cart', giftCardId);
}

/**
 * After checkout placed `order`: each card applied to the cart pays what it can of what is still
 * owed, in the order applied. A card another order emptied meanwhile pays what it has left, or is
 * skipped; the rest is paid as any order is (POST /api/orders/{id}/payments). Returns the order as it stands.
 */
export async function spendAppliedGiftCards(db: Database, env: GiftCardSettings, order: OrderRow, cartId: string, actor: string, now = new Date()): Promise<OrderRow> {
  const cards = await appliedCardsOf(db, cartId);
  let spent = false;
  for (const { card } of cards) {
    if (unusableBecause(card, order.currency, now)) continue;
    try {
      spent = (await spendGiftCard(db, env, order, card.id, actor, undefined, now)) !== null || spent;
    } catch (error) {
      if (!(error instanceof ApiError && error.code === 'CONFLICT')) throw error;
    }
  }
  return spent ? (await db.query.orders.findFirst({ where: eq(orders.id, order.id) }))! : order;
}
