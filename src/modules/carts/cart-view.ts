import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type CartLineRow, type CartRow, cartLines, carts, promotions } from '../../db/schema';
import { ApiError, type FieldProblem, problemOf } from '../../lib/errors';
import { toMajor } from '../../lib/money';
import { appliedCode, type Quote, quote, taxBreakdown } from '../checkout';
import type { Cart } from './carts.schemas';
import { defaultAddressesOf, withDefaultAddresses } from './default-addresses';
import { appliedCardsOf, giftCardsView } from '../gift-cards';

/**
 * A cart as the API shows it: priced by quote() at every read, so it always says what checkout
 * would charge now. What can no longer stand (a coupon that expired or no longer applies, a product
 * taken off sale, a currency the store stopped selling in) does not fail the read: it is taken out
 * of the cart, for good, and the response that took it out says why in `notices`.
 */

type Notice = Cart['notices'][number];

export function cartLinesOf(db: Database, cartId: string) {
  return db.select().from(cartLines).where(eq(cartLines.cartId, cartId)).orderBy(asc(cartLines.createdAt), asc(cartLines.id));
}

/** The code entered on a cart: its promotion's, a coupon's too (a deleted one has none). */
export const cartCodeRead = (db: Database, cart: Pick<CartRow, 'promotionId'>) =>
  db
    .select({ code: sql<string>`${promotions.code}` })
    .from(promotions)
    .where(eq(promotions.id, cart.promotionId ?? ''));

/** Who would use the coupon, for per-customer limits: as placeOrder counts it. */
export function couponCustomerKey(cart: Pick<CartRow, 'customerId' | 'email'>): string | null {
  return cart.customerId ?? (cart.email ? `email:${cart.email.toLowerCase()}` : null);
}

interface Priced {
  quote: Quote;
  lines: CartLineRow[];
  notices: Notice[];
  couponDropped: boolean;
  /** The chosen shipping method no longer serves the cart: forgotten, the cheapest used instead. */
  methodDropped: boolean;
}

/** The problems quote() reported as fields, or null when the error is not about one of the cart's parts. */
function fieldsOf(error: unknown): FieldProblem[] | null {
  if (!(error instanceof ApiError)) return null;
  if (error.code === 'VALIDATION_ERROR') return error.details.flatMap((d) => problemOf(d) ?? []);
  if ((error.code === 'CONFLICT' || error.code === 'COUPON_NOT_APPLICABLE') && error.details.some((d) => d.field === 'couponCode'))
    return [{ field: 'couponCode', problem: error.message }];
  return null;
}

/** Prices the cart, dropping whatever quote() refuses (at most once each) until it prices. */
async function priceTolerantly(db: Database, cart: CartRow, rows: CartLineRow[], couponCode: string | null, now: Date): Promise<Priced> {
  let lines = rows;
  let currency: string | null = cart.currency;
  let code = couponCode;
  const notices: Notice[] = [];
  for (let attempt = 0; ; attempt++) {
    try {
      const q = await quote(db, {
        currency,
        lines: lines.map((l) => ({ variantId: l.variantId, quantity: l.quantity, key: l.id })),
        couponCode: code,
        customerKey: couponCustomerKey(cart),
        shippingAddress: cart.shippingAddress,
        shippingMethodId: cart.shippingMethodId,
        now,
      });
      const methodDropped = q.shipping.problem?.field === 'shippingMethodId';
      if (methodDropped)
        notices.push({ code: 'shipping_method_removed', message: 'The shipping method chosen no longer ships this cart to its address; the cheapest one that does is used' });
      return { quote: q, lines, notices, couponDropped: code !== couponCode, methodDropped };
    } catch (error) {
      const problems = fieldsOf(error);
      if (!problems || attempt >= 3) throw error;
      const dropped = new Set<number>();
      for (const { field, problem } of problems) {
        const line = /^lines\.(\d+)\.variantId$/.exec(field);
        if (field === 'currency' && currency !== null) {
          notices.push({ code: 'currency_changed', message: `The store no longer sells in ${cart.currency}; the cart is now in its default currency` });
          currency = null;
        } else if (field === 'couponCode' && code !== null) {
          const why = problem.startsWith('Coupon') || problem.startsWith('Code') ? problem : `Coupon '${code}': ${problem}`;
          notices.push({ code: 'coupon_removed', message: `${why}; it was removed from the cart` });
          code = null;
        } else if (line) {
          dropped.add(Number(line[1]));
          notices.push({ code: 'line_removed', message: `${problem.replace(/^'(.*)' is not for sale$/, "'$1' is no longer for sale")}; it was removed from the cart` });
        } else throw error;
      }
      lines = lines.filter((_, i) => !dropped.has(i));
    }
  }
}

/** The cart's lines and coupon code, and the cart with the customer's default addresses where it has none. */
async function cartParts(db: Database, stored: CartRow) {
  const [rows, couponRows, defaults, cards] = await db.batch([
    cartLinesOf(db, stored.id),
    cartCodeRead(db, stored),
    defaultAddressesOf(db, stored.customerId),
    appliedCardsOf(db, stored.id),
  ]);
  return { cart: withDefaultAddresses(stored, defaults), rows, couponCode: couponRows[0]?.code ?? null, cards };
}

/**
 * The shipping options of the cart as it would be priced now: the active methods of the zone that
 * serves its shipping address, each priced for it (an empty list when no zone serves the address).
 * A cart without an address has none to offer yet: 409 naming `shippingAddress`.
 */
export async function shippingOptions(db: Database, stored: CartRow, now = new Date()) {
  const { cart, rows, couponCode } = await cartParts(db, stored);
  if (!cart.shippingAddress) {
    throw ApiError.conflict('The cart has no shipping address yet: set one (PATCH /api/carts/{id}) to see how it can ship', 'shippingAddress', {
      problem: 'is needed to choose a shipping method',
      code: 'required',
    });
  }
  const { quote: q } = await priceTolerantly(db, cart, rows, couponCode, now);
  return { currency: q.currency, options: q.shipping.options };
}

/**
 * `readOnly` (staff's list) prices the cart without taking anything out of it: the notices say what
 * the next read by its owner will remove, and the idle clock (`updatedAt`) is left alone.
 */
export async function cartView(db: Database, stored: CartRow, { now = new Date(), readOnly = false }: { now?: Date; readOnly?: boolean } = {}): Promise<Cart> {
  const { cart, rows, couponCode, cards } = await cartParts(db, stored);
  const priced = await priceTolerantly(db, cart, rows, couponCode, now);
  const q = priced.quote;
  let current = cart;
  if (!readOnly && priced.notices.length && cart.status === 'active') {
    const kept = new Set(priced.lines.map((l) => l.id));
    const removed = rows.filter((r) => !kept.has(r.id)).map((r) => r.id);
    const patch = {
      updatedAt: now.toISOString(),
      ...(priced.couponDropped ? { promotionId: null } : {}),
      ...(priced.methodDropped ? { shippingMethodId: null } : {}),
      ...(q.currency.code !== cart.currency ? { currency: q.currency.code } : {}),
    };
    await db.batch([
      db
        .update(carts)
        .set(patch)
        .where(and(eq(carts.id, cart.id), eq(carts.status, 'active'))),
      ...(removed.length ? [db.delete(cartLines).where(and(eq(cartLines.cartId, cart.id), inArray(cartLines.id, removed)))] : []),
    ]);
    current = { ...cart, ...patch };
  }
  const major = (minor: number) => toMajor(minor, q.currency.minorUnits);
  return {
    id: current.id,
    status: current.status,
    customerId: current.customerId,
    email: current.email,
    currency: q.currency.code,
    pricesIncludeTax: q.totals.pricesIncludeTax,
    couponCode: appliedCode(q),
    shippingAddress: current.shippingAddress ?? null,
    billingAddress: current.billingAddress ?? null,
    lines: q.lines.map((line, i) => ({
      id: priced.lines[i]!.id,
      productId: line.productId,
      variantId: line.variantId,
      name: line.name,
      sku: line.sku,
      options: line.options,
      quantity: line.quantity,
      unitPrice: major(line.unitPrice),
      subtotal: major(line.subtotal),
      discount: major(line.discount),
      promotions: line.promotions.map((p) => ({ ...p, amount: major(p.amount) })),
      taxRate: line.taxRate === null ? null : Number(line.taxRate),
      taxClass: line.taxClass,
      taxAmount: major(line.tax),
      tax: major(line.tax),
      total: major(line.total),
      inStock: line.quantity <= line.stock,
    })),
    promotions: q.promotions.map((p) => ({ ...p, amount: major(p.amount), shippingAmount: major(p.shippingAmount) })),
    shippingMethod: q.shipping.chosen && {
      id: q.shipping.chosen.method.id,
      name: q.shipping.chosen.method.name,
      carrier: q.shipping.chosen.method.carrier,
      amount: major(q.totals.shippingTotal),
    },
    shippingMethodChosen: q.shipping.chosen !== null && q.shipping.chosen.method.id === current.shippingMethodId,
    totals: {
      subtotal: major(q.totals.subtotal),
      discountTotal: major(q.totals.discountTotal),
      shippingTotal: major(q.totals.shippingTotal),
      shippingTax: major(q.totals.shippingTax),
      taxTotal: major(q.totals.taxTotal),
      total: major(q.totals.total),
      taxBreakdown: taxBreakdown(
        [
          ...q.lines.map((l) => ({ rate: l.taxRate, charged: l.subtotal - l.discount, tax: l.tax })),
          { rate: q.totals.shippingTaxRate, charged: q.totals.shippingTotal, tax: q.totals.shippingTax },
        ],
        q.totals.pricesIncludeTax,
        major,
      ),
    },
    ...giftCardsView(cards, q.totals.total, q.currency.code, q.currency.minorUnits, now),
    // A converted cart's coupon counts its own order as a use: the order, not the cart, says what was charged.
    notices: current.status === 'active' ? priced.notices : [],
    orderId: current.orderId,
    createdAt: current.createdAt,
    updatedAt: current.updatedAt,
  };
}
