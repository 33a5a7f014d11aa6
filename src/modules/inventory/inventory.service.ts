import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { inventoryAdjustments, productVariants, products, storeSettings } from '../../db/schema';
import { withGuards } from '../../lib/db-guards';
import { ApiError, detailOf } from '../../lib/errors';
import { listPlan, type ParsedListQuery } from '../../lib/query';
import type { adjustmentListQuery, inventoryListQuery } from './inventory.query';
import type { Adjustment, CreateAdjustmentInput, InventoryItem } from './inventory.schemas';
import { effectiveThreshold, stockChangeStatements } from './stock';

// Aliased where two tables share a column name: D1 batches return rows keyed by column name.
const itemColumns = {
  variantId: productVariants.id,
  productId: productVariants.productId,
  productName: sql<string>`${products.name}`.as('product_name'),
  name: productVariants.name,
  sku: productVariants.sku,
  options: productVariants.options,
  stock: productVariants.stock,
  lowStockThreshold: sql<number>`${effectiveThreshold}`.as('threshold'),
  low: sql<number>`${productVariants.stock} <= ${effectiveThreshold}`.as('low'),
};
type ItemRow = Omit<InventoryItem, 'low'> & { low: number | boolean };
const toItem = (row: ItemRow): InventoryItem => ({ ...row, low: Boolean(row.low) });

/** Variants with their product and the store settings, for the threshold in force. */
const selectItems = (db: Database) =>
  db.select(itemColumns).from(productVariants).innerJoin(products, eq(products.id, productVariants.productId)).innerJoin(storeSettings, eq(storeSettings.id, 'store'));
const countItems = (db: Database) =>
  db.select({ total: count() }).from(productVariants).innerJoin(products, eq(products.id, productVariants.productId)).innerJoin(storeSettings, eq(storeSettings.id, 'store'));

/** One page of stock levels within `reach` and their total, counted in SQL, in one round trip. */
export async function listInventory(db: Database, query: ParsedListQuery<typeof inventoryListQuery.filters>, config: typeof inventoryListQuery, reach: SQL | undefined) {
  const plan = listPlan(config, query, [reach]);
  const [rows, totals] = await db.batch([
    selectItems(db)
      .where(plan.where)
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    countItems(db).where(plan.matching),
  ]);
  return { items: rows.map(toItem), total: totals[0]!.total };
}

export async function getItem(db: Database, variantId: string, reach: SQL | undefined): Promise<InventoryItem> {
  const [row] = await selectItems(db).where(and(eq(productVariants.id, variantId), reach));
  if (!row) throw ApiError.notFound('Variant', variantId);
  return toItem(row);
}

/**
 * Adjusts a variant's stock by `delta` in one batch (stockChangeStatements: the history row, whose
 * trigger moves the stock and writes any `inventory.low`), reading back the row and the new level in
 * the same batch.
 * Below zero trips the stock trigger: 409 and nothing changes.
 */
export async function adjustStock(db: Database, variantId: string, input: CreateAdjustmentInput, reach: SQL | undefined, actor: string) {
  const before = await getItem(db, variantId, reach);
  const results = await withGuards(
    () =>
      db.batch([
        ...stockChangeStatements(db, { variantId, delta: input.delta, reason: input.reason, note: input.note ?? null, actor }),
        // The row this batch just inserted: batches are serialised, so it has the highest rowid of the variant's history.
        db.select().from(inventoryAdjustments).where(eq(inventoryAdjustments.variantId, variantId)).orderBy(desc(sql`rowid`)).limit(1),
        selectItems(db).where(eq(productVariants.id, variantId)),
      ] as never) as Promise<unknown[]>,
    {
      insufficient_stock: () =>
        new ApiError('CONFLICT', `Stock cannot go below zero: ${before.stock} in stock, ${-input.delta} to take out`, {
          details: [detailOf({ field: 'delta', problem: `must be at least ${-before.stock} with the stock now`, code: 'too_small' })],
        }),
    },
  );
  const [adjustment] = results.at(-2) as Adjustment[];
  const [item] = results.at(-1) as ItemRow[];
  return { ...adjustment!, inventory: toItem(item!) };
}

export async function listAdjustments(
  db: Database,
  variantId: string,
  query: ParsedListQuery<typeof adjustmentListQuery.filters>,
  config: typeof adjustmentListQuery,
  reach: SQL | undefined,
) {
  await getItem(db, variantId, reach);
  const plan = listPlan(config, query, [eq(inventoryAdjustments.variantId, variantId)]);
  const [rows, totals] = await db.batch([
    db
      .select()
      .from(inventoryAdjustments)
      .where(plan.where)
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    db.select({ total: count() }).from(inventoryAdjustments).where(plan.matching),
  ]);
  return { items: rows as Adjustment[], total: totals[0]!.total };
}
