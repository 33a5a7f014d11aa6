import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type CartRow, users } from '../../db/schema';
import { ApiError, type FieldProblem } from '../../lib/errors';
import { type PlacedOrder, placeOrder } from '../orders';
import { cartCodeRead, cartLinesOf } from './cart-view';
import type { CheckoutInput } from './carts.schemas';
import { assertActive } from './carts.service';
import { spendAppliedGiftCards } from './cart-gift-cards';
import type { GiftCardSettings } from '../ledger';
import { defaultAddressesOf, withDefaultAddresses } from './default-addresses';

/**
 * Turns the cart into an order at today's prices: placeOrder() writes the order, takes the stock,
 * uses the coupon and converts the cart in one batch, and the database refuses a second conversion
 * of the same cart (guard `cart_converted`, 409). When anything is refused (stock, coupon) nothing
 * is written and the cart stays active with its lines. The body's fields apply to this order only;
 * the cart's addresses, or the customer's defaults where it has none (./default-addresses.ts), otherwise.
 * Once placed, the gift cards applied to the cart pay what they can of it (./cart-gift-cards.ts).
 */
export async function checkout(
  db: Database,
  env: GiftCardSettings,
  stored: CartRow,
  input: CheckoutInput,
  actor: string,
  numberStart?: number,
  now = new Date(),
): Promise<PlacedOrder> {
  assertActive(stored);
  const [lines, couponRows, customerRows, defaults] = await db.batch([
    cartLinesOf(db, stored.id),
    cartCodeRead(db, stored),
    db
      .select({ email: users.email })
      .from(users)
      .where(eq(users.id, stored.customerId ?? '')),
    defaultAddressesOf(db, stored.customerId),
  ]);
  const cart = withDefaultAddresses(stored, defaults);
  const email = input.email ?? cart.email ?? customerRows[0]?.email ?? null;
  const missing: FieldProblem[] = [];
  if (!email) missing.push({ field: 'email', problem: 'is required: a guest order needs an email (here or on the cart)', code: 'required' });
  if (lines.length === 0) missing.push({ field: 'lines', problem: 'the cart is empty', code: 'too_small' });
  if (missing.length) throw ApiError.validation(missing);
  const placed = await placeOrder(
    db,
    {
      customerId: cart.customerId,
      email: email!,
      currency: cart.currency,
      lines: lines.map((l) => ({ variantId: l.variantId, quantity: l.quantity })),
      couponCode: couponRows[0]?.code ?? null,
      shippingAddress: input.shippingAddress ?? cart.shippingAddress,
      shippingMethodId: cart.shippingMethodId,
      billingAddress: input.billingAddress ?? cart.billingAddress,
      notes: input.notes ?? null,
      cartId: cart.id,
      actor,
      linesField: 'lines',
      numberStart,
    },
    now,
  );
  return { ...placed, order: await spendAppliedGiftCards(db, env, placed.order, cart.id, actor, now) };
}
