import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { events, inventoryAdjustments, productVariants } from '../../src/db/schema';
import { createDb } from '../../src/db/client';
import { interceptD1 } from '../../src/d1/intercept';
import { withGuards } from '../../src/lib/db-guards';
import { takeNotedEvents } from '../../src/lib/events';
import { lowStockEventId, stockChangeStatements } from '../../src/modules/inventory/stock';
import { adminKey, createProduct, db } from '../helpers';

async function variant(stock: number, lowStockThreshold: number | null = null) {
  const product = await createProduct(await adminKey(), { variants: [{ stock, lowStockThreshold }] });
  return product.variants[0] as { id: string; sku: string | null };
}
const change = (variantId: string, delta: number) => ({ variantId, delta, reason: 'correction' as const, actor: 'system' });
const apply = (...changes: ReturnType<typeof change>[]) => withGuards(() => db().batch(changes.flatMap((c) => stockChangeStatements(db(), c)) as never));
const stockOf = async (id: string) => (await db().select().from(productVariants).where(eq(productVariants.id, id)))[0]!.stock;
const lowEvents = async (variantId: string) => (await db().select().from(events).where(eq(events.type, 'inventory.low'))).filter((e) => e.data.variantId === variantId);

describe('stock changes', () => {
  it('moves stock and keeps each change in the history', async () => {
    const v = await variant(10);
    await apply(change(v.id, -3));
    await apply(change(v.id, 5));
    expect(await stockOf(v.id)).toBe(12);
    const history = await db().select().from(inventoryAdjustments).where(eq(inventoryAdjustments.variantId, v.id));
    expect(history.map((h) => h.delta).sort()).toEqual([-3, 5]);
  });

  it('refuses to go below zero, and the whole batch with it', async () => {
    const a = await variant(5);
    const b = await variant(1);
    await expect(apply(change(a.id, -2), change(b.id, -2))).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await stockOf(a.id)).toBe(5);
    expect(await stockOf(b.id)).toBe(1);
    expect(await db().select().from(inventoryAdjustments).where(eq(inventoryAdjustments.variantId, a.id))).toHaveLength(0);
  });

  it('emits inventory.low once per crossing of the threshold, at most once an hour', async () => {
    const v = await variant(10, 3);
    await apply(change(v.id, -5)); // 5: above
    expect(await lowEvents(v.id)).toHaveLength(0);
    await apply(change(v.id, -2)); // 3: crosses
    await apply(change(v.id, -1)); // 2: already below
    const [low, ...more] = await lowEvents(v.id);
    expect(more).toHaveLength(0);
    expect(low!.data).toMatchObject({ variantId: v.id, quantity: 3, threshold: 3, sku: v.sku });
    await apply(change(v.id, 8)); // 10: restocked
    await apply(change(v.id, -9)); // 1: crosses again, within the hour of the first: no second event
    expect(await lowEvents(v.id)).toHaveLength(1);
    await db().update(events).set({ createdAt: '2000-01-01T00:00:00.000Z' }).where(eq(events.id, low!.id));
    await apply(change(v.id, 8)); // 9: restocked
    await apply(change(v.id, -9)); // 0: crosses again, an hour after the last event
    expect(await lowEvents(v.id)).toHaveLength(2);
  });

  it('falls back to the store threshold (5) when the variant and product set none', async () => {
    const v = await variant(6);
    await apply(change(v.id, -1));
    expect(await lowEvents(v.id)).toHaveLength(1);
  });

  it('lets concurrent decrements sell exactly the stock', async () => {
    const v = await variant(5);
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => apply(change(v.id, -1))));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    expect(await stockOf(v.id)).toBe(0);
    expect((await env.DB.prepare('SELECT min(stock) AS m FROM product_variants').first())!.m).toBeGreaterThanOrEqual(0);
  });

  it('is one statement per change: the history row moves the stock by itself', async () => {
    const a = await variant(10);
    const b = await variant(10, 3);
    // Count the statements D1 is really sent, through a wrapper of the binding.
    const sent: number[] = [];
    const counted = createDb(
      interceptD1(env.DB, {
        batch: (statements, proceed) => {
          sent.push(statements.length);
          return proceed(statements.map((s) => s.statement));
        },
      }),
    );
    const changes = [change(a.id, -2), change(b.id, -8), change(a.id, 4)];
    await withGuards(() => counted.batch(changes.flatMap((c) => stockChangeStatements(counted, c)) as never));
    expect(sent).toEqual([3]);
    expect(await stockOf(a.id)).toBe(12);
    expect(await stockOf(b.id)).toBe(2);
    // A row inserted with no other statement moves the stock (and updated_at) on its own.
    const at = '2031-01-02T03:04:05.000Z';
    await env.DB.prepare(
      "INSERT INTO inventory_adjustments (id, variant_id, product_id, delta, reason, actor, created_at) SELECT 'adj_ALONE' || hex(randomblob(4)), id, product_id, -5, 'correction', 'system', ? FROM product_variants WHERE id = ?",
    )
      .bind(at, a.id)
      .run();
    const [row] = await db().select().from(productVariants).where(eq(productVariants.id, a.id));
    expect(row).toMatchObject({ stock: 7, updatedAt: at });
  });

  it('inserts nothing and moves nothing for an unknown variant', async () => {
    const before = (await env.DB.prepare('SELECT count(*) AS n FROM inventory_adjustments').first<{ n: number }>())!.n;
    await apply(change('var_NOSUCHVARIANT', -3));
    expect((await env.DB.prepare('SELECT count(*) AS n FROM inventory_adjustments').first<{ n: number }>())!.n).toBe(before);
    expect(await db().select().from(inventoryAdjustments).where(eq(inventoryAdjustments.variantId, 'var_NOSUCHVARIANT'))).toHaveLength(0);
  });

  it('refuses an adjustment below zero alone: no row, no stock change, no event', async () => {
    const v = await variant(2, 1);
    await expect(apply(change(v.id, -3))).rejects.toMatchObject({ code: 'CONFLICT' });
    // Straight into the table too: the trigger's stock update trips the guard and aborts the insert.
    await expect(
      env.DB.prepare(
        "INSERT INTO inventory_adjustments (id, variant_id, product_id, delta, reason, actor, created_at) SELECT 'adj_NEGATIVE', id, product_id, -3, 'correction', 'system', '2031-01-01T00:00:00.000Z' FROM product_variants WHERE id = ?",
      )
        .bind(v.id)
        .run(),
    ).rejects.toThrow(/insufficient_stock/);
    expect(await stockOf(v.id)).toBe(2);
    expect(await db().select().from(inventoryAdjustments).where(eq(inventoryAdjustments.variantId, v.id))).toHaveLength(0);
    expect(await lowEvents(v.id)).toHaveLength(0);
  });

  it("writes inventory.low with the id derived from the adjustment's, and notes that id for the request to publish", async () => {
    const v = await variant(10, 4);
    const database = db();
    takeNotedEvents(database);
    await withGuards(() => database.batch(stockChangeStatements(database, change(v.id, 3)) as never)); // 13: an increment notes nothing
    expect(takeNotedEvents(database)).toEqual([]);
    await withGuards(() => database.batch(stockChangeStatements(database, change(v.id, -9)) as never)); // 4: crosses
    const noted = takeNotedEvents(database);
    const [adjustment] = await db()
      .select()
      .from(inventoryAdjustments)
      .where(eq(inventoryAdjustments.variantId, v.id))
      .orderBy(inventoryAdjustments.id)
      .then((r) => r.filter((a) => a.delta === -9));
    expect(noted).toEqual([lowStockEventId(adjustment!.id)]);
    expect(noted[0]).toBe(`evt_${adjustment!.id.slice('adj_'.length)}`);
    const [low, ...more] = await lowEvents(v.id);
    expect(more).toHaveLength(0);
    expect(low).toMatchObject({ id: noted[0], createdAt: adjustment!.createdAt, publishedAt: null });
    expect(low!.data).toEqual({ productId: adjustment!.productId, variantId: v.id, sku: v.sku, quantity: 4, threshold: 4 });
    // Already at or below: a decrement notes its possible id but nothing is written under it.
    await withGuards(() => database.batch(stockChangeStatements(database, change(v.id, -1)) as never)); // 3
    const [unwritten] = takeNotedEvents(database);
    expect(unwritten).toMatch(/^evt_/);
    expect(await db().select().from(events).where(eq(events.id, unwritten!))).toHaveLength(0);
    expect(await lowEvents(v.id)).toHaveLength(1);
  });

  it('uses the product threshold when the variant has none, and never fires on increments', async () => {
    const product = await createProduct(await adminKey(), { lowStockThreshold: 7, variants: [{ stock: 8 }] });
    const id = product.variants[0].id as string;
    await apply(change(id, -1)); // 7: crosses the product's 7 (the store's is 5)
    expect((await lowEvents(id)).map((e) => e.data.threshold)).toEqual([7]);
    await apply(change(id, -7), change(id, 3)); // 0 then 3: below, and an increment that stays below
    expect(await lowEvents(id)).toHaveLength(1);
  });
});
