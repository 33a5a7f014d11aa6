import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type CartRow, cartRecoveries, carts } from '../../db/schema';
import { timingSafeEqualBytes } from '../../lib/crypto';
import { derivedToken, tokenSecret } from '../../lib/derived-token';
import { ApiError } from '../../lib/errors';
import { ID_PREFIX, newId } from '../../lib/ids';
import { newCartToken } from './carts.access';
import { ALREADY_CHECKED_OUT } from './carts.service';
import { CONFIG_DEFAULTS, type Vars } from '../../config';

/**
 * The way back into an abandoned cart. When the cron finds a cart abandoned it adds a
 * `cart_recoveries` row; the reminder email links to CART_RECOVERY_URL with the cart id and a token
 * derived from that row's id with JWT_SECRET (never stored, redacted in the message log, never the
 * cart token itself). Redeeming it (`POST /api/carts/{id}/recover`) works once, within
 * RECOVERY_DAYS, for that cart only: it reopens the cart and hands out a new cart token, so the old
 * one (wherever it was left) stops working.
 */
export const RECOVERY_DAYS = 7;
const PURPOSE = 'store-api cart-recovery token v1:';

export const recoveryToken = (secret: string, recoveryId: string) => derivedToken(secret, PURPOSE, recoveryId);

/** The secret recovery tokens are derived with. */
export const recoverySecret = (env: Pick<Vars, 'JWT_SECRET'>): string => tokenSecret(env, 'Cart recovery');

/** The reminder's link: CART_RECOVERY_URL with the cart and the token (the storefront posts them to /api/carts/{cart}/recover). */
export function recoveryUrl(base: string | undefined, cartId: string, token: string): string {
  const url = new URL(base ?? CONFIG_DEFAULTS.CART_RECOVERY_URL);
  url.searchParams.set('cart', cartId);
  url.searchParams.set('token', token);
  return url.toString();
}

/** The recovery row to add, in the abandonment's batch, for a cart found abandoned at `now`. */
export function newRecovery(cartId: string, now: Date) {
  return {
    id: newId(ID_PREFIX.cartRecovery, now.getTime()),
    cartId,
    expiresAt: new Date(now.getTime() + RECOVERY_DAYS * 86_400_000).toISOString(),
    usedAt: null,
    createdAt: now.toISOString(),
  };
}

const encoder = new TextEncoder();
const same = (a: string, b: string) => a.length === b.length && timingSafeEqualBytes(encoder.encode(a), encoder.encode(b));

/**
 * Redeems `token` for cart `cartId`: marks its recovery used, reopens the cart and gives it a new
 * cart token. A token that is wrong, used, expired or another cart's is 404, exactly as an unknown
 * cart; a cart checked out since is 409.
 */
export async function redeemRecovery(db: Database, secret: string, cartId: string, token: string, now = new Date()): Promise<{ cart: CartRow; token: string }> {
  const open = await db
    .select()
    .from(cartRecoveries)
    .where(and(eq(cartRecoveries.cartId, cartId), isNull(cartRecoveries.usedAt), gt(cartRecoveries.expiresAt, now.toISOString())));
  let match: string | undefined;
  for (const recovery of open) if (same(await recoveryToken(secret, recovery.id), token)) match = recovery.id;
  if (!match) throw ApiError.notFound('Cart', cartId);
  const [cart] = await db.select().from(carts).where(eq(carts.id, cartId));
  if (!cart) throw ApiError.notFound('Cart', cartId);
  if (cart.status === 'converted') throw ApiError.conflict(ALREADY_CHECKED_OUT);
  const fresh = await newCartToken();
  const ts = now.toISOString();
  // Each write applies only if the other does: the cart only while the recovery is unused, the
  // recovery only once the cart holds the new token (a concurrent checkout or redemption wins cleanly).
  const [, used] = await db.batch([
    db
      .update(carts)
      .set({ tokenHash: fresh.tokenHash, status: 'active', updatedAt: ts })
      .where(
        and(
          eq(carts.id, cartId),
          eq(carts.status, cart.status),
          sql`EXISTS (SELECT 1 FROM ${cartRecoveries} WHERE ${cartRecoveries.id} = ${match} AND ${cartRecoveries.usedAt} IS NULL)`,
        ),
      ),
    db
      .update(cartRecoveries)
      .set({ usedAt: ts })
      .where(
        and(
          eq(cartRecoveries.id, match),
          isNull(cartRecoveries.usedAt),
          sql`EXISTS (SELECT 1 FROM ${carts} WHERE ${carts.id} = ${cartId} AND ${carts.tokenHash} = ${fresh.tokenHash})`,
        ),
      ),
  ]);
  if (used.meta.changes === 0) throw ApiError.notFound('Cart', cartId);
  return { cart: { ...cart, tokenHash: fresh.tokenHash, status: 'active', updatedAt: ts }, token: fresh.token };
}
