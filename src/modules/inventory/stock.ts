import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { compiled, type Slot } from '../../db/compiled';
import { events, INVENTORY_REASONS, inventoryAdjustments, productVariants, products, storeSettings } from '../../db/schema';
import { newEventId } from '../../lib/events';
import { ID_PREFIX, newId } from '../../lib/ids';

/**
 * Every stock change goes through here, so each one is kept in the adjustment history and emits
 * `inventory.low` when it takes a variant from above its low-stock threshold to at or below it
 * (once per crossing: the next event needs a restock above the threshold first). The statements
 * go into the caller's D1 batch; a decrement below zero trips the stock trigger and aborts the
 * whole batch (guard `insufficient_stock`).
 */

export interface StockChange {
  variantId: string;
  /** Negative to take stock out (an order), positive to put it back (a cancellation, a restock). */
  delta: number;
  reason: (typeof INVENTORY_REASONS)[number];
  orderId?: string | null;
  note?: string | null;
  /** `user:<id>`, `key:<id>`, `guest:<cartId>` (a guest checkout) or `system`. */
  actor: string;
}

/** The threshold in force for a variant: its own, else its product's, else the store's. */
export const effectiveThreshold = sql<number>`coalesce(${productVariants.lowStockThreshold}, ${products.lowStockThreshold}, ${storeSettings.lowStockThreshold})`;

// Built once per isolate (src/db/compiled.ts): every order line runs them.
const changeStock = compiled((db, p: Slot<'variantId' | 'delta' | 'ts'>) =>
  db
    .update(productVariants)
    .set({ stock: sql`${productVariants.stock} + ${p('delta')}`, updatedAt: sql`${p('ts')}` })
    .where(eq(productVariants.id, p('variantId'))),
);
const recordAdjustment = compiled((db, p: Slot<'id' | 'variantId' | 'delta' | 'reason' | 'note' | 'orderId' | 'actor' | 'ts'>) =>
  // Columns in table order: id, variant_id, product_id, delta, reason, note, order_id, actor, created_at.
  db.insert(inventoryAdjustments).select(
    sql`SELECT ${p('id')}, ${productVariants.id}, ${productVariants.productId}, ${p('delta')}, ${p('reason')},
      ${p('note')}, ${p('orderId')}, ${p('actor')}, ${p('ts')} FROM ${productVariants} WHERE ${productVariants.id} = ${p('variantId')}`,
  ),
);
const lowStockEvent = compiled((db, p: Slot<'eventId' | 'variantId' | 'delta' | 'ts'>) =>
  // Columns in table order: id, type, data, created_at, published_at.
  db.insert(events).select(
    sql`SELECT ${p('eventId')}, 'inventory.low',
        json_object('productId', ${productVariants.productId}, 'variantId', ${productVariants.id}, 'sku', ${productVariants.sku},
                    'quantity', ${productVariants.stock}, 'threshold', ${effectiveThreshold}),
        ${p('ts')}, NULL
      FROM ${productVariants}
      JOIN ${products} ON ${products.id} = ${productVariants.productId}
      JOIN ${storeSettings} ON ${storeSettings.id} = 'store'
      WHERE ${productVariants.id} = ${p('variantId')}
        AND ${productVariants.stock} <= ${effectiveThreshold}
        AND ${productVariants.stock} - ${p('delta')} > ${effectiveThreshold}`,
  ),
);

export function stockChangeStatements(db: Database, change: StockChange, now = new Date()) {
  const ts = now.toISOString();
  const { variantId, delta } = change;
  const statements = [
    changeStock(db, { variantId, delta, ts }),
    recordAdjustment(db, {
      id: newId(ID_PREFIX.inventoryAdjustment, now.getTime()),
      variantId,
      delta,
      reason: change.reason,
      note: change.note ?? null,
      orderId: change.orderId ?? null,
      actor: change.actor,
      ts,
    }),
  ];
  if (delta >= 0) return statements;
  return [...statements, lowStockEvent(db, { eventId: newEventId(db, now), variantId, delta, ts })];
}
