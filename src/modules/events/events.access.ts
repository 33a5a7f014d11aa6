import { and, eq, inArray, like, ne, or, type SQL, sql } from 'drizzle-orm';
import { events, products } from '../../db/schema';
import { type Principal, vendorScope } from '../../lib/access';
import { PING_EVENT } from '../../lib/event-types';

/**
 * Which events a caller with `events:read` reads (test pings never: they were sent to one endpoint).
 * Staff: all. A vendor user (or a key of the vendor role): the events about its own products
 * (`product.*`, `inventory.low`); order events carry the whole order's amounts, which a vendor is
 * not shown (it follows its lines through `GET /api/orders`), so it reads none of them.
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
    ),
  )!;
}
