import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type CartRow, carts } from '../../db/schema';
import { randomBase62, sha256Hex, timingSafeEqualBytes } from '../../lib/crypto';
import { ApiError } from '../../lib/errors';
import { CUSTOMER_ROLE } from '../customers';
import { hasPermission, type Principal, vendorScope, credentialNeeded } from '../../lib/access';

/**
 * Who reaches a cart: a guest cart whoever holds its token (`X-Cart-Token`), a customer's cart that
 * customer (with its JWT), and staff. Anything else is 404 exactly as an unknown id, so neither a
 * cart's existence nor its owner can be probed. Vendor users have no carts (403).
 */

export const CART_TOKEN_HEADER = 'X-Cart-Token';
/** `me` in a cart path stands for the signed-in user's active cart. */
export const SELF_CART = 'me';
export type CartAction = 'read' | 'write';

const TOKEN_PREFIX = 'ct_';
const TOKEN_PATTERN = /^ct_[0-9A-Za-z]{40}$/;

export async function newCartToken(): Promise<{ token: string; tokenHash: string }> {
  const token = `${TOKEN_PREFIX}${randomBase62(40)}`;
  return { token, tokenHash: await sha256Hex(token) };
}

/** The stored hash of a well-formed token, or null for anything that cannot be a cart token. */
export async function cartTokenHash(token: string | undefined | null): Promise<string | null> {
  return token && TOKEN_PATTERN.test(token) ? sha256Hex(token) : null;
}

/** Staff reach every cart: reading with `carts:read`, `carts:write` or `orders:write`; changing with either write. */
export function isCartStaff(principal: Principal, action: CartAction): boolean {
  const writes = hasPermission(principal, 'carts:write') || hasPermission(principal, 'orders:write');
  return action === 'read' ? writes || hasPermission(principal, 'carts:read') : writes;
}

/**
 * The staff list of every cart (`GET /api/carts`): staff who may read carts. Customers and vendor
 * users are answered 404, as a path that does not exist for them (a customer's cart is at
 * `/api/carts/me`; vendors have no carts); a staff key or user without the permission is 403.
 */
export function refuseCartListOutsiders(principal: Principal): void {
  if (principal.kind === 'anonymous') throw credentialNeeded(principal);
  const outsider = vendorScope(principal) !== null || (principal.kind === 'user' && principal.role === CUSTOMER_ROLE);
  if (outsider) throw new ApiError('NOT_FOUND', `No route for GET /api/carts: a customer's cart is at /api/carts/${SELF_CART}`);
  if (!isCartStaff(principal, 'read')) throw ApiError.forbidden("This credential lacks the 'carts:read' permission");
}

export function refuseVendors(principal: Principal): void {
  if (vendorScope(principal)) throw ApiError.forbidden('Vendor users have no carts');
}

const encoder = new TextEncoder();

async function tokenOpens(cart: CartRow, token: string | undefined): Promise<boolean> {
  if (!cart.tokenHash) return false;
  const hash = await cartTokenHash(token);
  return hash !== null && timingSafeEqualBytes(encoder.encode(hash), encoder.encode(cart.tokenHash));
}

/** A customer's open cart: `active`, or `abandoned` and waiting to be used again. */
export function activeCartOf(db: Database, customerId: string) {
  return db.query.carts.findFirst({
    where: and(eq(carts.customerId, customerId), inArray(carts.status, ['active', 'abandoned'])),
    orderBy: desc(carts.createdAt),
  });
}

/**
 * An abandoned cart that is used again (any change, by anyone who may make it) is `active` once more,
 * before the change runs; its `abandonedAt` stays, so an order it becomes counts as recovered.
 */
export async function reactivated(db: Database, cart: CartRow, now = new Date()): Promise<CartRow> {
  if (cart.status !== 'abandoned') return cart;
  const updatedAt = now.toISOString();
  await db
    .update(carts)
    .set({ status: 'active', updatedAt })
    .where(and(eq(carts.id, cart.id), eq(carts.status, 'abandoned')));
  return { ...cart, status: 'active', updatedAt };
}

/** The cart a request names (an id, or `me`), if the caller may `action` it; 404 otherwise. */
export async function reachCart(db: Database, principal: Principal, id: string, token: string | undefined, action: CartAction): Promise<CartRow> {
  refuseVendors(principal);
  if (id === SELF_CART) {
    if (principal.kind === 'anonymous') throw ApiError.unauthenticated(`'${SELF_CART}' names the signed-in customer's cart: Authorization: Bearer <token>`);
    if (principal.kind !== 'user') throw ApiError.forbidden(`'${SELF_CART}' names a signed-in user's cart; an API key acts for no user`);
    const own = await activeCartOf(db, principal.id);
    if (!own) throw new ApiError('NOT_FOUND', 'You have no active cart; POST /api/carts creates one');
    return action === 'write' ? reactivated(db, own) : own;
  }
  const cart = await db.query.carts.findFirst({ where: eq(carts.id, id) });
  if (cart) {
    const reached = (principal.kind === 'user' && cart.customerId === principal.id) || (await tokenOpens(cart, token)) || isCartStaff(principal, action);
    if (reached) return action === 'write' ? reactivated(db, cart) : cart;
    if (action === 'write' && isCartStaff(principal, 'read')) throw ApiError.forbidden("This credential lacks the 'carts:write' permission");
  }
  throw ApiError.notFound('Cart', id);
}
