import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { orders } from '../../db/schema';
import { ApiError, type ErrorDetail } from '../../lib/errors';
import type { Principal } from '../../lib/access';
import { assertCancellable, cancellationStatements, runCancellation, runStatusChange, statusStatements } from './order-changes';
import { assertTransition } from '../ledger';
import { ALL_ORDERS, type OrderReach } from './orders.access';
import { orderForChange, toOrder } from './orders.read';
import type { CreateOrderInput, OrderDetail, UpdateOrderInput } from './orders.schemas';
import { customerKeyOf, notEnoughStock, placeOrder } from './place-order';
import { type Orderer, placementFor } from './placement';
import { type Quote, quote } from '../checkout';

export { getOrder, listOrders } from './orders.read';

/** Places the order (one batch, see placeOrder) and returns it as GET /api/orders/{id} would show it, from what was written (no read back). */
export async function createOrder(db: Database, principal: Principal, body: CreateOrderInput, actor: string, numberStart?: number): Promise<OrderDetail> {
  const placement = await placementFor(db, principal, body);
  if (!placement.orderer) throw ApiError.validation([...placement.errors, ...(await lineErrors(db, body))]);
  const { order, lines, history } = await placeOrder(db, {
    ...placement.orderer,
    currency: body.currency,
    lines: body.lines,
    couponCode: body.couponCode,
    shippingAddress: body.shippingAddress,
    shippingMethodId: body.shippingMethodId,
    billingAddress: body.billingAddress,
    notes: body.notes,
    actor,
    numberStart,
  });
  return { ...toOrder(order, lines), history: history.map(({ orderId: _, ...h }) => h) };
}

/**
 * What createOrder would place this body at, without placing it (the panel's review step): the
 * orderer and the quote placeOrder prices from, refused as createOrder would refuse it (one 422
 * listing every invalid field; a line asking more than the stock read is the 409 for that line).
 */
export async function reviewOrder(db: Database, principal: Principal, body: CreateOrderInput): Promise<{ orderer: Orderer; quote: Quote }> {
  const placement = await placementFor(db, principal, body);
  if (!placement.orderer) throw ApiError.validation([...placement.errors, ...(await lineErrors(db, body))]);
  const { orderer } = placement;
  const priced = await quote(db, {
    currency: body.currency,
    lines: body.lines,
    couponCode: body.couponCode,
    shippingAddress: body.shippingAddress,
    shippingMethodId: body.shippingMethodId,
    requireShipping: true,
    customerKey: customerKeyOf(orderer),
  });
  const short = priced.lines.findIndex((l) => l.stock < l.quantity);
  if (short >= 0) throw notEnoughStock(priced.lines[short]!, priced.lines[short]!.stock, `lines.${short}.quantity`);
  return { orderer, quote: priced };
}

/** The problems the quote finds with the lines, currency and coupon, so one 422 lists every invalid field. */
async function lineErrors(db: Database, body: CreateOrderInput): Promise<ErrorDetail[]> {
  try {
    await quote(db, { currency: body.currency, lines: body.lines, couponCode: body.couponCode, shippingAddress: body.shippingAddress });
  } catch (error) {
    if (error instanceof ApiError && error.code === 'VALIDATION_ERROR') return error.details;
  }
  return [];
}

/** Staff change of status and notes, in one batch. Notes alone emit no event (docs/api.md, Events: events follow status changes). */
export async function updateOrder(db: Database, id: string, patch: UpdateOrderInput, actor: string, now = new Date()): Promise<void> {
  const { order, lines } = await orderForChange(db, id, ALL_ORDERS);
  const to = patch.status;
  const statements: unknown[] = [];
  if (to === 'cancelled') statements.push(...cancellationStatements(db, order, lines, { actor, now }));
  else if (to !== undefined) statements.push(...statusStatements(db, order, to, { actor, now }));
  if (patch.notes !== undefined) statements.push(db.update(orders).set({ notes: patch.notes, updatedAt: now.toISOString() }).where(eq(orders.id, order.id)));
  if (!statements.length) return;
  await runStatusChange(db, order, statements, (current) => (to === 'cancelled' ? assertCancellable(current) : to && assertTransition(current.status, to)));
}

/** Cancels an order the caller reaches: staff any cancellable order, a customer its own pending one. */
export async function cancelOrder(db: Database, id: string, reach: OrderReach, reason: string | undefined, actor: string, now = new Date()): Promise<void> {
  const { order, lines } = await orderForChange(db, id, reach);
  await runCancellation(db, order, lines, { actor, reason, now, customer: reach.kind === 'customer' });
}
