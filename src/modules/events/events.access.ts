import { and, eq, inArray, like, ne, or, type SQL, sql } from 'drizzle-orm';
import { events, orderLines, products } from '../../db/schema';
import { type Principal, vendorScope } from '../../lib/access';
import { PING_EVENT } from '../../lib/event-types';

/**
 * Which events a caller with `events:read` reads (test pings never: they were sent to one endpoint).
 * Staff: all. A vendor user (or a key of the vendor role): the events about its own products
 * (`product.*`, `inventory.low`), and the `order.*` events of orders holding one of its lines, their
 * data cut to `vendorView` (the whole order's amounts are not a vendor's to see; payment, refund,
 * shipment and return events name other vendors' lines and money, so it reads none of them).
 */
export function eventCondition(principal: Principal): SQL {
  const notPing = ne(events.type, PING_EVENT);
  const vendorId = vendorScope(principal);
  if (!vendorId) return notPing;
  const ownProduct = inArray(events.resourceId, sql`(SELECT ${products.id} FROM ${products} WHERE ${products.vendorId} = ${vendorId})`);
  return and(
    notPing,
    or(
      // A deleted product is no longer in products: its events name the vendor in their data.
      and(like(events.type, 'product.%'), or(ownProduct, sql`json_extract(${events.data}, '$.product.vendorId') = ${vendorId}`)),
      and(eq(events.type, 'inventory.low'), ownProduct),
      and(like(events.type, 'order.%'), inArray(events.resourceId, sql`(SELECT ${orderLines.orderId} FROM ${orderLines} WHERE ${orderLines.vendorId} = ${vendorId})`)),
    ),
  )!;
}

/** What of an order event's data a vendor reads: which order, and how it moved; not the order's amounts or its customer. */
const VENDOR_ORDER_FIELDS = ['orderId', 'orderNumber', 'status', 'previousStatus', 'reason'];

/** The event as `principal` reads it: a vendor's order events cut to VENDOR_ORDER_FIELDS. */
export function vendorView<E extends { event: string; data: Record<string, unknown> }>(principal: Principal, event: E): E {
  if (!vendorScope(principal) || !event.event.startsWith('order.')) return event;
  return { ...event, data: Object.fromEntries(VENDOR_ORDER_FIELDS.filter((key) => key in event.data).map((key) => [key, event.data[key]])) };
}
