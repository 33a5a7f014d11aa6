import { and, count, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type CartRow, cartLines, carts, currencies, products, productVariants, storeSettings, users } from '../../db/schema';
import { ApiError, detailOf, renamed } from '../../lib/errors';
import { ID_PREFIX, newId } from '../../lib/ids';
import { insertWhere } from '../../lib/insert-where';
import { listPlan, type ParsedListQuery } from '../../lib/query';
import type { Principal } from '../../lib/access';
import { MAX_LINES, quote } from '../checkout';
import { activeCartOf, isCartStaff, newCartToken, reactivated } from './carts.access';
import { cartLinesOf, cartView, couponCustomerKey, shippingOptions } from './cart-view';
import { cartListQuery } from './carts.query';
import { type CreateCartInput, MAX_LINE_QUANTITY, type UpdateCartInput } from './carts.schemas';

export const ALREADY_CHECKED_OUT = 'This cart has already been checked out';

export function assertActive(cart: CartRow): void {
  if (cart.status !== 'active') throw ApiError.conflict(ALREADY_CHECKED_OUT);
}

const isActive = (cartId: string) => and(eq(carts.id, cartId), eq(carts.status, 'active'));

/** After a guarded write changed nothing: the cart was checked out (or adopted away) meanwhile. */
async function whyUnchanged(db: Database, cartId: string): Promise<ApiError> {
  const row = await db.query.carts.findFirst({ columns: { status: true }, where: eq(carts.id, cartId) });
  if (row?.status === 'abandoned') return ApiError.conflict('The cart was found abandoned as this change arrived; send it again (the cart is reopened by it)');
  return row ? ApiError.conflict(ALREADY_CHECKED_OUT) : ApiError.notFound('Cart', cartId);
}

/** The currency code to store: the one asked for if the store sells in it (422 otherwise), else the default. */
async function cartCurrency(db: Database, wanted: string | undefined): Promise<string> {
  const [settings, rows] = await db.batch([
    db.select({ code: storeSettings.defaultCurrency }).from(storeSettings).where(eq(storeSettings.id, 'store')),
    db
      .select()
      .from(currencies)
      .where(eq(currencies.code, wanted ?? '')),
  ]);
  if (wanted === undefined) return settings[0]!.code;
  if (!rows[0]?.enabled) throw ApiError.validation([{ field: 'currency', problem: `'${wanted}' is not a currency this store sells in` }]);
  return wanted;
}

export interface CreatedCart {
  cart: CartRow;
  /** The guest token, present only when a guest cart was just created. */
  token: string | null;
  created: boolean;
}

/**
 * A signed-in user gets its active cart (created when it has none); staff may name a `customerId`
 * to do the same for a customer; anyone else (anonymous, API keys) gets a new guest cart and its
 * token. One active cart per customer holds under concurrency: the insert checks it.
 */
export async function createCart(db: Database, principal: Principal, input: CreateCartInput, now = new Date()): Promise<CreatedCart> {
  let customerId = principal.kind === 'user' ? principal.id : null;
  if (input.customerId !== undefined && input.customerId !== customerId) {
    if (!isCartStaff(principal, 'write')) throw ApiError.forbidden("Creating a customer's cart needs 'carts:write' or 'orders:write'");
    const [customer] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, input.customerId), eq(users.roleId, 'customer')));
    if (!customer) throw ApiError.validation([{ field: 'customerId', problem: `no customer '${input.customerId}'`, code: 'not_found' }]);
    customerId = customer.id;
  }
  const ts = now.toISOString();
  const base = {
    id: newId(ID_PREFIX.cart, now.getTime()),
    customerId,
    email: input.email ?? null,
    currency: await cartCurrency(db, input.currency),
    couponId: null,
    promotionId: null,
    shippingAddress: null,
    billingAddress: null,
    shippingMethodId: null,
    status: 'active' as const,
    orderId: null,
    abandonedAt: null,
    createdAt: ts,
    updatedAt: ts,
  };
  if (customerId === null) {
    const { token, tokenHash } = await newCartToken();
    const cart = { ...base, tokenHash };
    await db.insert(carts).values(cart);
    return { cart, token, created: true };
  }
  const cart: CartRow = { ...base, tokenHash: null };
  const hasActive = sql`NOT EXISTS (SELECT 1 FROM ${carts} WHERE ${carts.customerId} = ${customerId} AND ${carts.status} IN ('active', 'abandoned'))`;
  const inserted = await insertWhere(db, carts, cart, hasActive);
  // Compare with 0: D1's changes also count rows the statement's triggers wrote (the audit log's, for staff).
  if (inserted.meta.changes > 0) return { cart, token: null, created: true };
  const existing = await activeCartOf(db, customerId);
  if (!existing) throw new Error(`customer ${customerId} has no active cart after a refused insert`);
  return { cart: await reactivated(db, existing, now), token: null, created: false };
}

export async function updateCart(db: Database, cart: CartRow, input: UpdateCartInput, now = new Date()): Promise<CartRow> {
  assertActive(cart);
  const patch: Partial<CartRow> = { updatedAt: now.toISOString() };
  if (input.currency !== undefined) patch.currency = await cartCurrency(db, input.currency);
  if (input.email !== undefined) patch.email = input.email;
  if (input.shippingAddress !== undefined) patch.shippingAddress = input.shippingAddress;
  if (input.billingAddress !== undefined) patch.billingAddress = input.billingAddress;
  if (input.shippingMethodId !== undefined)
    patch.shippingMethodId = input.shippingMethodId === null ? null : await servingMethod(db, { ...cart, ...patch }, input.shippingMethodId);
  const [row] = await db.update(carts).set(patch).where(isActive(cart.id)).returning();
  if (!row) throw await whyUnchanged(db, cart.id);
  return row;
}

/** A method the cart may choose: one of its shipping options now (422 SHIPPING_UNAVAILABLE naming `shippingMethodId` otherwise). */
async function servingMethod(db: Database, cart: CartRow, methodId: string): Promise<string> {
  const { options } = await shippingOptions(db, cart);
  if (options.some((o) => o.method.id === methodId)) return methodId;
  throw new ApiError('SHIPPING_UNAVAILABLE', `shippingMethodId: '${methodId}' does not ship this cart to its address`, {
    details: [detailOf({ field: 'shippingMethodId', problem: `'${methodId}' is not one of this cart's shipping options (GET /api/carts/{id}/shipping-options)` })],
  });
}

async function variantForSale(db: Database, variantId: string) {
  const [variant] = await db
    .select({ id: productVariants.id, productId: productVariants.productId, stock: productVariants.stock, name: products.name, status: products.status })
    .from(productVariants)
    .innerJoin(products, eq(products.id, productVariants.productId))
    .where(eq(productVariants.id, variantId));
  if (!variant) throw ApiError.validation([{ field: 'variantId', problem: `no variant '${variantId}'`, code: 'not_found' }]);
  if (variant.status !== 'active') throw ApiError.validation([{ field: 'variantId', problem: `'${variant.name}' is not for sale` }]);
  return variant;
}

/** Stock is only reserved at checkout; asking for more than there is now is refused early with what is left. */
function assertInStock(variant: { name: string; stock: number }, quantity: number): void {
  if (quantity <= variant.stock) return;
  const left = Math.max(variant.stock, 0);
  throw new ApiError('CONFLICT', `Not enough stock for '${variant.name}': ${quantity} asked, ${left} left`, {
    details: [detailOf({ field: 'quantity', problem: `only ${left} in stock`, code: 'too_big' })],
  });
}

/**
 * Adds to the cart's line of this variant, or adds a line. One statement checks that the cart is
 * still active and under MAX_LINES lines, so neither a checkout nor a concurrent add slips past.
 */
export async function addLine(db: Database, cart: CartRow, input: { variantId: string; quantity: number }, now = new Date()): Promise<void> {
  assertActive(cart);
  const variant = await variantForSale(db, input.variantId);
  const [existing] = await db
    .select()
    .from(cartLines)
    .where(and(eq(cartLines.cartId, cart.id), eq(cartLines.variantId, variant.id)));
  const quantity = (existing?.quantity ?? 0) + input.quantity;
  if (quantity > MAX_LINE_QUANTITY) {
    throw ApiError.validation([{ field: 'quantity', problem: `a line holds at most ${MAX_LINE_QUANTITY}; the cart already has ${existing?.quantity ?? 0}`, code: 'too_big' }]);
  }
  assertInStock(variant, quantity);
  const ts = now.toISOString();
  const result = await db.run(sql`
    INSERT INTO cart_lines (id, cart_id, product_id, variant_id, quantity, created_at, updated_at)
    SELECT ${newId(ID_PREFIX.cartLine, now.getTime())}, ${cart.id}, ${variant.productId}, ${variant.id}, ${input.quantity}, ${ts}, ${ts}
    WHERE EXISTS (SELECT 1 FROM carts WHERE id = ${cart.id} AND status = 'active')
      AND ((SELECT count(*) FROM cart_lines WHERE cart_id = ${cart.id}) < ${MAX_LINES}
        OR EXISTS (SELECT 1 FROM cart_lines WHERE cart_id = ${cart.id} AND variant_id = ${variant.id}))
    ON CONFLICT (cart_id, variant_id) DO UPDATE SET quantity = min(cart_lines.quantity + excluded.quantity, ${MAX_LINE_QUANTITY}), updated_at = excluded.updated_at`);
  if (result.meta.changes === 0) {
    const again = await db.query.carts.findFirst({ columns: { status: true }, where: eq(carts.id, cart.id) });
    if (again?.status === 'active') throw ApiError.conflict(`A cart has at most ${MAX_LINES} lines`, 'variantId');
    throw await whyUnchanged(db, cart.id);
  }
  await touch(db, cart.id, ts);
}

const touch = (db: Database, cartId: string, ts: string) => db.update(carts).set({ updatedAt: ts }).where(isActive(cartId));

async function lineOf(db: Database, cart: CartRow, lineId: string) {
  const [line] = await db
    .select()
    .from(cartLines)
    .where(and(eq(cartLines.id, lineId), eq(cartLines.cartId, cart.id)));
  if (!line) throw ApiError.notFound('Cart line', lineId);
  return line;
}

/** Sets a line's quantity; 0 removes it. */
export async function setLineQuantity(db: Database, cart: CartRow, lineId: string, quantity: number, now = new Date()): Promise<void> {
  assertActive(cart);
  const line = await lineOf(db, cart, lineId);
  if (quantity === 0) return removeLine(db, cart, lineId, now);
  // Lowering a quantity is always allowed; raising it is held to the stock (and to the product being on sale).
  if (quantity > line.quantity) assertInStock(await variantForSale(db, line.variantId), quantity);
  const ts = now.toISOString();
  const [updated] = await db.batch([
    db
      .update(cartLines)
      .set({ quantity, updatedAt: ts })
      .where(and(eq(cartLines.id, lineId), sql`EXISTS (SELECT 1 FROM carts WHERE id = ${cart.id} AND status = 'active')`)),
    touch(db, cart.id, ts),
  ]);
  if (updated.meta.changes === 0) throw await whyUnchanged(db, cart.id);
}

export async function removeLine(db: Database, cart: CartRow, lineId: string, now = new Date()): Promise<void> {
  assertActive(cart);
  await lineOf(db, cart, lineId);
  const ts = now.toISOString();
  const [deleted] = await db.batch([
    db.delete(cartLines).where(and(eq(cartLines.id, lineId), sql`EXISTS (SELECT 1 FROM carts WHERE id = ${cart.id} AND status = 'active')`)),
    touch(db, cart.id, ts),
  ]);
  if (deleted.meta.changes === 0) throw await whyUnchanged(db, cart.id);
}

/**
 * Applies a coupon after pricing the cart with it: an unknown code is 422 and one that cannot be
 * used (expired, used up, not applicable to these lines) is 409 naming why, and neither is stored.
 */
export async function applyCoupon(db: Database, cart: CartRow, code: string, now = new Date()): Promise<void> {
  assertActive(cart);
  const lines = await cartLinesOf(db, cart.id);
  const q = await quote(db, {
    currency: cart.currency,
    lines: lines.map((l) => ({ variantId: l.variantId, quantity: l.quantity, key: l.id })),
    couponCode: code,
    customerKey: couponCustomerKey(cart),
    shippingAddress: cart.shippingAddress,
    now,
  }).catch((error: unknown) => {
    // quote() names the field `couponCode`; this body calls it `code`.
    if (!(error instanceof ApiError)) throw error;
    if (!error.details.some((d) => d.field === 'couponCode')) throw error;
    const details = error.details.map((d) => (d.field === 'couponCode' ? renamed(d, 'code') : d));
    throw error.code === 'VALIDATION_ERROR' ? ApiError.validation(details) : new ApiError(error.code, error.message, { details });
  });
  // The code names a promotion (a coupon is one), which the quote lists as applied.
  const promotionId = q.promotions.find((p) => p.code !== null)!.promotionId;
  const [row] = await db.update(carts).set({ promotionId, updatedAt: now.toISOString() }).where(isActive(cart.id)).returning({ id: carts.id });
  if (!row) throw await whyUnchanged(db, cart.id);
}

export async function removeCoupon(db: Database, cart: CartRow, now = new Date()): Promise<void> {
  assertActive(cart);
  const [row] = await db.update(carts).set({ promotionId: null, updatedAt: now.toISOString() }).where(isActive(cart.id)).returning({ id: carts.id });
  if (!row) throw await whyUnchanged(db, cart.id);
}

export async function reread(db: Database, cartId: string): Promise<CartRow> {
  const row = await db.query.carts.findFirst({ where: eq(carts.id, cartId) });
  if (!row) throw ApiError.notFound('Cart', cartId);
  return row;
}

/** A page of every cart for staff, each priced as checkout would price it now, without changing it. */
export async function listCarts(db: Database, query: ParsedListQuery<typeof cartListQuery.filters>) {
  const plan = listPlan(cartListQuery, query);
  const [rows, totals] = await db.batch([
    db
      .select()
      .from(carts)
      .where(plan.where)
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    db.select({ total: count() }).from(carts).where(plan.matching),
  ]);
  const items = await Promise.all(rows.map((cart) => cartView(db, cart, { readOnly: true })));
  return { items, total: totals[0]!.total };
}
