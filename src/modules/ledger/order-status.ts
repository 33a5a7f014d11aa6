import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type OrderRow, type OrderStatus, orderStatusHistory, orders } from '../../db/schema';
import { ApiError, detailOf } from '../../lib/errors';
import { outboxEvent } from '../../lib/events';
import { ID_PREFIX, newId } from '../../lib/ids';
import { toMajor } from '../../lib/money';

/**
 * The order state machine of docs/api.md (Carts and orders), kept with the ledger because money moves
 * orders (paid in full: `processing`; everything paid given back: `refunded`, settle.ts) and the ledger
 * imports no module above it; orders, shipments and returns make every other move with it. The
 * trigger `orders_status_guard` (migrations/0005) enforces the same table inside D1, so two racing
 * changes cannot both apply; a test checks the two agree.
 */
export const ORDER_TRANSITIONS: Record<OrderStatus, readonly OrderStatus[]> = {
  pending: ['processing', 'cancelled'],
  processing: ['shipped', 'cancelled', 'refunded'],
  shipped: ['completed', 'refunded'],
  completed: ['refunded'],
  cancelled: [],
  refunded: [],
};

export function canTransition(from: OrderStatus, to: OrderStatus): boolean {
  return ORDER_TRANSITIONS[from].includes(to);
}

/** 409 CONFLICT naming the states, for any move the state machine does not allow. */
export function assertTransition(from: OrderStatus, to: OrderStatus): void {
  if (canTransition(from, to)) return;
  const next = ORDER_TRANSITIONS[from];
  const allowed = next.length ? `from '${from}' it can move to ${next.map((s) => `'${s}'`).join(', ')}` : `'${from}' is final`;
  throw new ApiError('CONFLICT', `An order cannot move from '${from}' to '${to}': ${allowed}`, {
    details: [detailOf({ field: 'status', problem: `cannot move from '${from}' to '${to}'`, code: 'conflict' })],
  });
}

/**
 * An order's number as its events carry it. Every written order has one (its INSERT assigns it;
 * `order.placed` reads it back in the same batch, place-order.ts): the row type allows null only for
 * the order being built.
 */
export const orderNumberOf = (order: Pick<OrderRow, 'number'>) => order.number as number;

/** The data of every `order.*` event (its module's `<name>.events.ts`): amounts in major units, as everywhere outside. */
export function orderEventData(order: Pick<OrderRow, 'id' | 'number' | 'customerId' | 'email' | 'total' | 'currency' | 'minorUnits' | 'status'>) {
  return {
    orderId: order.id,
    orderNumber: orderNumberOf(order),
    customerId: order.customerId,
    email: order.email,
    total: toMajor(order.total, order.minorUnits),
    currency: order.currency,
    status: order.status,
  };
}

export interface StatusChange {
  /** `user:<id>`, `key:<id>`, `guest:<cartId>` (a guest checkout) or `system`. */
  actor: string;
  note?: string | null;
  /** Why the order moved (`payment_expired` when the system cancels an unpaid order): the history note unless one is given, and `reason` in the events' data. */
  reason?: string | null;
  now?: Date;
}

/**
 * The statements that move an order to `to`, for the caller's batch: the update (which the trigger
 * refuses if another request moved the order first), a history row, `order.updated`, and
 * `order.cancelled` for a cancellation. Returning stock or money is the caller's part of the batch.
 */
export function statusChangeStatements(db: Database, order: OrderRow, to: OrderStatus, change: StatusChange) {
  assertTransition(order.status, to);
  const now = change.now ?? new Date();
  const ts = now.toISOString();
  const moved = { ...order, status: to, updatedAt: ts };
  const data = { ...orderEventData(moved), previousStatus: order.status, ...(change.reason ? { reason: change.reason } : {}) };
  return [
    db
      .update(orders)
      .set({ status: to, updatedAt: ts, ...(to === 'cancelled' ? { cancelledAt: ts } : {}) })
      .where(eq(orders.id, order.id)),
    db.insert(orderStatusHistory).values({
      id: newId(ID_PREFIX.orderEvent, now.getTime()),
      orderId: order.id,
      fromStatus: order.status,
      toStatus: to,
      actor: change.actor,
      note: change.note ?? change.reason ?? null,
      createdAt: ts,
    }),
    outboxEvent(db, 'order.updated', data, now),
    ...(to === 'cancelled' ? [outboxEvent(db, 'order.cancelled', data, now)] : []),
  ];
}
