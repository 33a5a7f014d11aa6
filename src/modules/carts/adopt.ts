import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type CartRow, cartGiftCards, cartLines, carts } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { ID_PREFIX, newId } from '../../lib/ids';
import { MAX_LINES } from '../checkout';
import { activeCartOf, cartTokenHash } from './carts.access';
import { cartLinesOf } from './cart-view';
import { MAX_LINE_QUANTITY } from './carts.schemas';
import { reread } from './carts.service';

/**
 * A guest cart becomes a signed-in user's: when the user has no active cart the guest cart itself
 * changes hands (and its token stops working); otherwise its lines are merged into the user's cart
 * (quantities added, capped at MAX_LINE_QUANTITY), the user's cart takes the guest's email, addresses
 * and coupon where it has none and its gift cards, and the guest cart is deleted. Every statement is conditioned on the
 * guest cart still being an active guest cart, in one batch, so a concurrent checkout or adoption of
 * it leaves the user's cart untouched. Returns the user's cart.
 */
export async function adoptGuestCart(db: Database, userId: string, guest: CartRow, now = new Date()): Promise<CartRow> {
  if (guest.customerId === userId) return guest;
  if (guest.status !== 'active') throw ApiError.conflict('This cart has already been checked out');
  if (!guest.tokenHash || guest.customerId) throw ApiError.notFound('Cart', guest.id);
  const ts = now.toISOString();
  const stillGuest = and(eq(carts.id, guest.id), eq(carts.tokenHash, guest.tokenHash), isNull(carts.customerId), eq(carts.status, 'active'));
  const own = await activeCartOf(db, userId);
  if (!own) {
    const [row] = await db.update(carts).set({ customerId: userId, tokenHash: null, updatedAt: ts }).where(stillGuest).returning();
    if (!row) throw ApiError.notFound('Cart', guest.id);
    return row;
  }

  const [guestLines, ownLines] = await Promise.all([cartLinesOf(db, guest.id), cartLinesOf(db, own.id)]);
  const variants = new Set([...guestLines, ...ownLines].map((l) => l.variantId));
  if (variants.size > MAX_LINES) throw ApiError.conflict(`Together the two carts would have ${variants.size} lines; a cart has at most ${MAX_LINES}`);

  const guestIsActive = sql`EXISTS (SELECT 1 FROM carts WHERE id = ${guest.id} AND token_hash = ${guest.tokenHash} AND status = 'active')`;
  // Columns in table order: id, cart_id, product_id, variant_id, quantity, created_at, updated_at.
  const merges = guestLines.map((line) =>
    db
      .insert(cartLines)
      .select(sql`SELECT ${newId(ID_PREFIX.cartLine, now.getTime())}, ${own.id}, ${line.productId}, ${line.variantId}, ${line.quantity}, ${ts}, ${ts} WHERE ${guestIsActive}`)
      .onConflictDoUpdate({
        target: [cartLines.cartId, cartLines.variantId],
        set: { quantity: sql`min(cart_lines.quantity + excluded.quantity, ${MAX_LINE_QUANTITY})`, updatedAt: ts },
      }),
  );
  const takeOver = db
    .update(carts)
    .set({
      email: own.email ?? guest.email,
      shippingAddress: own.shippingAddress ?? guest.shippingAddress,
      billingAddress: own.billingAddress ?? guest.billingAddress,
      // The entered code (a promotion's, a coupon's too).
      ...(own.promotionId ? {} : { promotionId: guest.promotionId }),
      updatedAt: ts,
    })
    .where(and(eq(carts.id, own.id), guestIsActive));
  // Columns in table order: cart_id, gift_card_id, created_at.
  const cardsKept = db
    .insert(cartGiftCards)
    .select(sql`SELECT ${own.id}, gift_card_id, created_at FROM cart_gift_cards WHERE cart_id = ${guest.id} AND ${guestIsActive}`)
    .onConflictDoNothing();
  // The guest cart goes last: the statements before it are conditioned on its still being there.
  const results = await db.batch([takeOver, ...merges, cardsKept, db.delete(carts).where(stillGuest)]);
  if (results.at(-1)!.meta.changes === 0) throw ApiError.notFound('Cart', guest.id);
  return reread(db, own.id);
}

/** Adoption by token alone (sign-in with `cartToken`): null when the token opens no active guest cart. */
export async function adoptGuestCartByToken(db: Database, userId: string, token: string, now = new Date()): Promise<CartRow | null> {
  const tokenHash = await cartTokenHash(token);
  if (!tokenHash) return null;
  const guest = await db.query.carts.findFirst({ where: and(eq(carts.tokenHash, tokenHash), eq(carts.status, 'active')) });
  return guest ? adoptGuestCart(db, userId, guest, now) : null;
}
