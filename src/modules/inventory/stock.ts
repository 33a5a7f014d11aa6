import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { compiled, type Slot } from '../../db/compiled';
import { type INVENTORY_REASONS, inventoryAdjustments, productVariants, products, storeSettings } from '../../db/schema';
import { noteEventId } from '../../lib/events';
import { ID_PREFIX, newId } from '../../lib/ids';

/**
 * Every stock change goes through here, so each one is kept in the adjustment history and emits
 * `inventory.low` when it takes a variant from above its low-stock threshold to at or below it
 * (once per crossing: the next event needs a restock above the threshold first; and at most once an
 * hour per variant, so ordering and cancelling in a loop does not mail the staff each time). The statements
 * go into the caller's D1 batch; a decrement below zero trips the stock trigger and aborts the
 * whole batch (guard `insufficient_stock`).
 *
 * A change is ONE statement, the history row: every order line, cancellation and restock runs it,
 * and each statement on D1 has a fixed cost (an order was three per line: the stock update, the
 * row, the low-stock event). The trigger `inventory_adjustments_apply` (migration 0018) applies
 * the row's delta to the variant's stock (so the BEFORE UPDATE OF stock guard still refuses going
 * below zero and aborts the batch) and inserts `inventory.low` when a decrement crosses the
 * threshold, with the id `lowStockEventId` derives from the adjustment's: the request notes that
 * id in advance, so publishing sends it as any other event (an id that never committed, because
 * nothing crossed, is skipped by the consumer).
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

/** The id of the `inventory.low` event a decrement's adjustment may insert: `adj_X` -> `evt_X` (same SQL in 0018). */
export function lowStockEventId(adjustmentId: string): string {
  return ID_PREFIX.event + adjustmentId.slice(adjustmentId.indexOf('_'));
}

// Built once per isolate (src/db/compiled.ts): every order line runs it. Reads product_id off the
// variant, so an unknown variant inserts nothing (and moves nothing).
const recordAdjustment = compiled((db, p: Slot<'id' | 'variantId' | 'delta' | 'reason' | 'note' | 'orderId' | 'actor' | 'ts'>) =>
  // Columns in table order: id, variant_id, product_id, delta, reason, note, order_id, actor, created_at.
  db.insert(inventoryAdjustments).select(
    sql`SELECT ${p('id')}, ${productVariants.id}, ${productVariants.productId}, ${p('delta')}, ${p('reason')},
      ${p('note')}, ${p('orderId')}, ${p('actor')}, ${p('ts')} FROM ${productVariants} WHERE ${productVariants.id} = ${p('variantId')}`,
  ),
);

/**
 * The statements of one stock change. `onlyIf`, a condition checked in the same statement, makes it
 * conditional on what the batch finds (a return still `approved` when its receipt runs), so of two
 * concurrent requests only the one whose batch runs first changes stock.
 */
export function stockChangeStatements(db: Database, change: StockChange, now = new Date(), onlyIf?: SQL) {
  const id = newId(ID_PREFIX.inventoryAdjustment, now.getTime());
  if (change.delta < 0) noteEventId(db, lowStockEventId(id));
  const values = {
    id,
    variantId: change.variantId,
    delta: change.delta,
    reason: change.reason,
    note: change.note ?? null,
    orderId: change.orderId ?? null,
    actor: change.actor,
    ts: now.toISOString(),
  };
  if (!onlyIf) return [recordAdjustment(db, values)];
  return [
    db.insert(inventoryAdjustments).select(
      sql`SELECT ${values.id}, ${productVariants.id}, ${productVariants.productId}, ${values.delta}, ${values.reason},
        ${values.note}, ${values.orderId}, ${values.actor}, ${values.ts} FROM ${productVariants} WHERE ${productVariants.id} = ${values.variantId} AND ${onlyIf}`,
    ),
  ];
}
