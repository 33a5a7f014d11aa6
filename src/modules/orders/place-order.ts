import { asc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { compiled, compiledInsert, type Slot } from '../../db/compiled';
import {
  carts,
  events,
  type OrderLineRow,
  type OrderRow,
  orderLines,
  orderStatusHistory,
  orders,
  type PostalAddress,
  promotionUsages,
  promotions,
  quoteVersion,
  writeGuards,
} from '../../db/schema';
import { GUARDS, violatedGuard, withGuards } from '../../lib/db-guards';
import { ApiError, detailOf } from '../../lib/errors';
import { newEventId } from '../../lib/events';
import type { EventData } from '../../lib/events';
import { ID_PREFIX, newId, newIds } from '../../lib/ids';
import { CONFIG_DEFAULTS, config, type Vars } from '../../config';
import { stockChangeStatements } from '../inventory';
import { settleNothingOwed } from '../ledger';
import { placedEventData } from './placed-event';
import { appliedCode, forgetQuoteInputs, keepQuoteInputs, keptQuoteInputs, quoteFrom, type QuoteInputs, type QuoteRequest, readQuoteInputs } from '../checkout';

export interface PlaceOrderInput {
  /** The customer's account, or null for a guest order (then `email` is the contact). */
  customerId: string | null;
  email: string;
  currency?: string | null;
  lines: { variantId: string; quantity: number }[];
  couponCode?: string | null;
  shippingAddress?: PostalAddress | null;
  /** The shipping method chosen (a cart's, or the order body's); the cheapest that serves the address otherwise. */
  shippingMethodId?: string | null;
  billingAddress?: PostalAddress | null;
  notes?: string | null;
  /** The cart being checked out: converted in the same batch, so it is checked out once. */
  cartId?: string | null;
  /** `user:<id>`, `key:<id>`, `guest:<cartId>` (a guest checkout) or `system`. */
  actor: string;
  /** The JSON field the lines came from, for error details. */
  linesField?: string;
  /** ORDER_NUMBER_START: the first order's number, and the least any later one gets (orderNumberStart). */
  numberStart?: number;
  /** Ship at no charge (an exchange's new order). */
  shippingWaived?: boolean;
  /** More statements for the order's batch, given the order as priced (an exchange settles its return in it): all or nothing. */
  alsoWrite?: (order: OrderRow, lines: OrderLineRow[]) => unknown[];
  /** Answers for guards `alsoWrite`'s statements may trip. */
  alsoGuards?: Parameters<typeof withGuards>[1];
}

export interface PlacedOrder {
  order: OrderRow;
  lines: OrderLineRow[];
  history: (typeof orderStatusHistory.$inferSelect)[];
}

/**
 * Places an order at the quoted prices in ONE D1 batch: the order and its lines, a stock decrement
 * per line (with its history row and any `inventory.low`), the promotions' uses, the first history
 * row, `order.placed`, and the cart's conversion. The database's triggers refuse negative stock,
 * an overused promotion (a coupon too) and a second checkout of one cart, and any refusal rolls the whole batch
 * back: concurrent orders for the last units sell exactly the stock, and a failure leaves nothing.
 *
 * The quote comes from inputs this isolate kept when it has them all (quote-inputs.ts), else from
 * one read batch; either way the write batch first asserts that `quote_version` is still the one
 * they were read at, so an order is never written at prices, names or settings that changed in the
 * meantime: the batch aborts, the inputs are read again and the order priced again. With kept
 * inputs (and a cached API key, whose check rides in the same batch) an order is one round trip.
 * An order with nothing to pay (promotions took its whole total) is then settled at once, in a
 * batch of its own (settleNothingOwed, settle.ts): it never waits for a payment that cannot come.
 */
// The statements of every order, built once per isolate (src/db/compiled.ts).
const orderColumns = Object.keys(getTableColumns(orders)).filter((key) => key !== 'number' && key !== 'firstOrder');
/**
 * The order's INSERT numbers it: one more than the highest number (at least ORDER_NUMBER_START),
 * read by the same statement that writes the row. D1 runs a batch as one transaction on one
 * database, so two orders can never read the same highest number, and a batch that fails takes
 * its number with it (the next order gets it: no gaps). The unique index is the last word.
 * `order.placed` reads the number back in the same batch (placedEvent).
 */
const insertOrder = compiled((db, p: Slot<string>) =>
  db
    .insert(orders)
    .values({
      ...Object.fromEntries(orderColumns.map((key) => [key, p(key)])),
      number: sql`(SELECT max(coalesce(max(${orders.number}) + 1, ${p('numberStart')}), ${p('numberStart')}) FROM ${orders})`,
      // The customer's first order (for the reports): no other order of its account, or of its email as a guest, that is not cancelled.
      firstOrder: sql`NOT EXISTS (SELECT 1 FROM ${orders} AS o WHERE o.customer_id = ${p('customerId')} AND o.status != 'cancelled')
        AND NOT (${p('customerId')} IS NULL AND EXISTS (SELECT 1 FROM ${orders} AS o WHERE o.email = ${p('email')} AND o.customer_id IS NULL AND o.status != 'cancelled'))`,
    } as never)
    .returning({ number: orders.number, firstOrder: orders.firstOrder }),
);
/** `order.placed` with the number the order's INSERT assigned, read in the same batch. */
const placedEvent = compiled((db, p: Slot<'id' | 'data' | 'ts' | 'orderId'>) =>
  db.insert(events).values({
    id: p('id'),
    type: 'order.placed',
    data: sql`json_set(${p('data')}, '$.orderNumber', (SELECT ${orders.number} FROM ${orders} WHERE ${orders.id} = ${p('orderId')}))`,
    createdAt: p('ts'),
    publishedAt: null,
  } as never),
);
const insertOrderLine = compiledInsert(orderLines);
const insertHistory = compiledInsert(orderStatusHistory);
const insertPromotionUsage = compiledInsert(promotionUsages);
const usePromotion = compiled((db, p: Slot<'id'>) =>
  db
    .update(promotions)
    .set({ timesUsed: sql`${promotions.timesUsed} + 1` })
    .where(eq(promotions.id, p('id'))),
);
const quoteStillCurrent = compiled((db, p: Slot<'version'>) =>
  db.insert(writeGuards).values({ name: 'stale_quote', ok: sql`(SELECT ${quoteVersion.version} = ${p('version')} FROM ${quoteVersion} WHERE ${quoteVersion.id} = 1)` }),
);
const convertCart = compiled((db, p: Slot<'id' | 'orderId' | 'ts'>) =>
  db
    .update(carts)
    .set({ status: 'converted', orderId: sql`${p('orderId')}`, updatedAt: sql`${p('ts')}` })
    .where(eq(carts.id, p('id'))),
);

/** Prices read for an order went stale before it was written (the quote_version guard aborted the batch). */
class StaleQuote extends Error {}
/**
 * A promotion the order applied reached a usage limit meanwhile (its guard aborted the batch): the
 * order is priced again from a fresh read, which refuses its code (a coupon's in a coupon's words).
 */
class PromotionUsedUp extends Error {}

/** Kept inputs, then fresh reads; a fresh read is stale only if prices change within one round trip. */
const ATTEMPTS = 3;

export async function placeOrder(db: Database, input: PlaceOrderInput, now = new Date()): Promise<PlacedOrder> {
  const placed = await placePriced(db, input, now);
  if (placed.order.total > 0) return placed;
  // Nothing to pay: the order is settled at once, as a paid one (settle.ts), not left pending.
  const order = await settleNothingOwed(db, placed.order, { actor: input.actor, now });
  const history = await db
    .select()
    .from(orderStatusHistory)
    .where(eq(orderStatusHistory.orderId, order.id))
    .orderBy(asc(orderStatusHistory.createdAt), sql`${orderStatusHistory.fromStatus} IS NOT NULL`);
  return { ...placed, order, history };
}

async function placePriced(db: Database, input: PlaceOrderInput, now: Date): Promise<PlacedOrder> {
  if (input.lines.length === 0) throw ApiError.validation([{ field: input.linesField ?? 'lines', problem: 'must have at least one line', code: 'too_small' }]);
  const customerKey = customerKeyOf(input);
  const request: QuoteRequest = {
    currency: input.currency,
    lines: input.lines,
    couponCode: input.couponCode,
    customerKey,
    shippingAddress: input.shippingAddress,
    shippingMethodId: input.shippingMethodId,
    requireShipping: true,
    now,
    linesField: input.linesField,
    shippingWaived: input.shippingWaived,
  };
  let inputs = keptQuoteInputs(request);
  let kept = inputs !== undefined;
  for (let attempt = 1; ; attempt++) {
    if (!inputs) {
      inputs = await readQuoteInputs(db, request);
      keepQuoteInputs(request, inputs);
      kept = false;
    }
    try {
      return await writeOrder(db, input, request, inputs, now);
    } catch (error) {
      // Kept inputs may be out of date, so a 422 they lead to (not for sale, no such currency, no shipping) is
      // believed only once read afresh; a stale version is found by the batch's guard.
      const refusedFromKept = kept && error instanceof ApiError && (error.code === 'VALIDATION_ERROR' || error.code === 'SHIPPING_UNAVAILABLE');
      if (!(error instanceof StaleQuote) && !(error instanceof PromotionUsedUp) && !refusedFromKept) throw error;
      if (error instanceof StaleQuote) forgetQuoteInputs(inputs.version);
      inputs = undefined;
      if (attempt === ATTEMPTS) throw ApiError.conflict(GUARDS.stale_quote);
    }
  }
}

async function writeOrder(db: Database, input: PlaceOrderInput, request: QuoteRequest, inputs: QuoteInputs, now: Date): Promise<PlacedOrder> {
  const customerKey = request.customerKey!;
  const q = quoteFrom(request, inputs);
  const ts = now.toISOString();
  const id = newId(ID_PREFIX.order, now.getTime());
  const order: OrderRow = {
    id,
    number: null,
    firstOrder: false,
    customerId: input.customerId,
    email: input.email.toLowerCase(),
    status: 'pending',
    currency: q.currency.code,
    minorUnits: q.currency.minorUnits,
    subtotal: q.totals.subtotal,
    discountTotal: q.totals.discountTotal,
    shippingTotal: q.totals.shippingTotal,
    taxTotal: q.totals.taxTotal,
    pricesIncludeTax: q.totals.pricesIncludeTax,
    shippingTax: q.totals.shippingTax,
    shippingTaxRate: q.totals.shippingTaxRate,
    total: q.totals.total,
    amountPaid: 0,
    amountRefunded: 0,
    // Deprecated column (coupons are promotions since migration 0070): the code is `couponCode`.
    couponId: null,
    couponCode: appliedCode(q),
    promotions: q.promotions,
    shippingMethodId: q.shipping.chosen?.method.id ?? null,
    shippingMethodName: q.shipping.chosen?.method.name ?? null,
    shippingMethodCarrier: q.shipping.chosen?.method.carrier ?? null,
    shippingAddress: input.shippingAddress ?? null,
    billingAddress: input.billingAddress ?? input.shippingAddress ?? null,
    notes: input.notes ?? null,
    cartId: input.cartId ?? null,
    cancelledAt: null,
    createdAt: ts,
    updatedAt: ts,
  };
  // Lines are read back by id: ids that sort as the lines were given keep the order's line order.
  const lineIds = newIds(ID_PREFIX.orderLine, q.lines.length, now.getTime());
  const lines: OrderLineRow[] = q.lines.map((line, i) => ({
    id: lineIds[i]!,
    orderId: id,
    productId: line.productId,
    variantId: line.variantId,
    vendorId: line.vendorId,
    name: line.name,
    sku: line.sku,
    options: line.options,
    quantity: line.quantity,
    unitPrice: line.unitPrice,
    subtotal: line.subtotal,
    discount: line.discount,
    promotions: line.promotions,
    tax: line.tax,
    taxRate: line.taxRate,
    taxClass: line.taxClass,
    total: line.total,
    quantityShipped: 0,
    quantityDelivered: 0,
    quantityReturned: 0,
    quantityRefunded: 0,
  }));

  const placed = { id: newId(ID_PREFIX.orderEvent, now.getTime()), orderId: id, fromStatus: null, toStatus: 'pending' as const, actor: input.actor, note: null, createdAt: ts };
  const statements = [
    quoteStillCurrent(db, { version: inputs.version }),
    insertOrder(db, { ...order, numberStart: input.numberStart ?? CONFIG_DEFAULTS.ORDER_NUMBER_START }),
    ...lines.map((line) => insertOrderLine(db, line)),
    ...lines.flatMap((line) => stockChangeStatements(db, { variantId: line.variantId, delta: -line.quantity, reason: 'order', orderId: id, actor: input.actor }, now)),
    ...usedPromotionIds(q.promotions, inputs).flatMap((promotionId) => [
      usePromotion(db, { id: promotionId }),
      insertPromotionUsage(db, { id: newId(ID_PREFIX.promotionUsage, now.getTime()), promotionId, orderId: id, customerKey, createdAt: ts }),
    ]),
    insertHistory(db, placed),
    placedEvent(db, { id: newEventId(db, now), data: JSON.stringify(placedEventData(order) satisfies EventData<'order.placed'>), ts, orderId: id }),
    ...(input.cartId ? [convertCart(db, { id: input.cartId, orderId: id, ts })] : []),
    ...(input.alsoWrite?.(order, lines) ?? []),
  ];

  const write = () =>
    db.batch(statements as never).catch((error: unknown) => {
      const guard = violatedGuard(error);
      if (guard === 'stale_quote') throw new StaleQuote();
      if (guard === 'promotion_usage_limit' || guard === 'promotion_customer_limit') throw new PromotionUsedUp();
      throw error;
    });
  const results = (await withGuards(write, {
    ...input.alsoGuards,
    insufficient_stock: () => outOfStock(db, q.lines, input.linesField ?? 'lines'),
  })) as unknown[];
  Object.assign(order, (results[1] as Pick<OrderRow, 'number' | 'firstOrder'>[])[0]);
  // Everything the order's representation shows, so the caller answers without reading it back.
  return { order, lines, history: [placed] };
}

/** The promotions (coupons among them) an order applied: each counts one use. */
function usedPromotionIds(applied: readonly { promotionId: string }[], inputs: QuoteInputs): string[] {
  const stored = new Set(inputs.promotions.map((p) => p.id));
  return applied.map((a) => a.promotionId).filter((id) => stored.has(id));
}

/** The 409 for a batch refused for stock: which line ran short, read again after the refusal. */
async function outOfStock(db: Database, lines: { variantId: string; quantity: number; name: string }[], field: string): Promise<ApiError> {
  const stock = await db.query.productVariants.findMany({
    columns: { id: true, stock: true },
    where: (v, { inArray }) =>
      inArray(
        v.id,
        lines.map((l) => l.variantId),
      ),
  });
  const left = new Map(stock.map((v) => [v.id, v.stock]));
  const index = lines.findIndex((l) => (left.get(l.variantId) ?? 0) < l.quantity);
  const line = lines[Math.max(index, 0)]!;
  return notEnoughStock(line, left.get(line.variantId) ?? 0, `${field}.${Math.max(index, 0)}.quantity`);
}

/** The 409 for a line asking more than the `available` units. */
export function notEnoughStock(line: { name: string; quantity: number }, available: number, field: string): ApiError {
  return new ApiError('CONFLICT', `Not enough stock for '${line.name}': ${line.quantity} asked, ${available} left`, {
    details: [detailOf({ field, problem: `only ${available} in stock`, code: 'too_big' })],
  });
}

/** The first order number (`ORDER_NUMBER_START`, 1001 by default); any later order's is higher. */
export const orderNumberStart = (env: Pick<Vars, 'ORDER_NUMBER_START'>) => config(env).ORDER_NUMBER_START;

/** Whose promotion uses count against a per-customer limit: the account, or a guest's email. */
export const customerKeyOf = (orderer: { customerId: string | null; email: string }) => orderer.customerId ?? `email:${orderer.email.toLowerCase()}`;
