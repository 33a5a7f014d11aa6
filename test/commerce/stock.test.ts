import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { events, inventoryAdjustments, productVariants } from '../../src/db/schema';
import { withGuards } from '../../src/lib/db-guards';
import { stockChangeStatements } from '../../src/modules/inventory/stock';
import { adminKey, createProduct, db } from '../helpers';

async function variant(stock: number, lowStockThreshold: number | null = null) {
  const product = await createProduct(await adminKey(), { variants: [{ stock, lowStockThreshold }] });
  return product.variants[0] as { id: string; sku: string | null };
}
const change = (variantId: string, delta: number) => ({ variantId, delta, reason: 'correction' as const, actor: 'system' });
const apply = (...changes: ReturnType<typeof change>[]) =>
  withGuards(() => db().batch(changes.flatMap((c) => stockChangeStatements(db(), c)) as never));
const stockOf = async (id: string) => (await db().select().from(productVariants).where(eq(productVariants.id, id)))[0]!.stock;
const lowEvents = async (variantId: string) =>
  (await db().select().from(events).where(eq(events.type, 'inventory.low'))).filter((e) => e.data.variantId === variantId);

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

  it('emits inventory.low once per crossing of the threshold', async () => {
    const v = await variant(10, 3);
    await apply(change(v.id, -5)); // 5: above
    expect(await lowEvents(v.id)).toHaveLength(0);
    await apply(change(v.id, -2)); // 3: crosses
    await apply(change(v.id, -1)); // 2: already below
    const [low, ...more] = await lowEvents(v.id);
    expect(more).toHaveLength(0);
    expect(low!.data).toMatchObject({ variantId: v.id, quantity: 3, threshold: 3, sku: v.sku });
    await apply(change(v.id, 8)); // 10: restocked
    await apply(change(v.id, -9)); // 1: crosses again
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
});
