import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { events } from '../../src/db/schema';
import { stockChangeStatements } from '../../src/modules/inventory/stock';
import { adminKey, api, createProduct, db, uid } from '../helpers';

// inventory.low is sent once per crossing of the threshold, and at most once an hour per variant:
// ordering a variant down across it and cancelling, in a loop, mails the staff once.

const lowEvents = async (variantId: string) => (await db().select().from(events).where(eq(events.type, 'inventory.low'))).filter((e) => e.data.variantId === variantId);

async function setup() {
  const key = await adminKey();
  const product = await createProduct(key, { stock: 10, lowStockThreshold: 3 });
  return { key, variantId: product.variants[0].id as string };
}

async function orderDown(key: string, variantId: string) {
  const res = await api('/api/orders', { method: 'POST', key, json: { email: `low-${uid()}@example.test`, lines: [{ variantId, quantity: 8 }] } });
  if (res.status !== 201) throw new Error(`POST /api/orders answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
}

async function cancel(key: string, orderId: string) {
  expect((await api(`/api/orders/${orderId}/cancel`, { method: 'POST', key })).status).toBe(200);
}

/** Ten units back and eight out again, straight through the stock changes, at `now`. */
async function restockAndCross(variantId: string, now: Date) {
  const change = (delta: number) => ({ variantId, delta, reason: 'correction' as const, actor: 'system' });
  await db().batch([...stockChangeStatements(db(), change(8), now), ...stockChangeStatements(db(), change(-8), now)] as never);
}

describe('inventory.low at most once an hour per variant', () => {
  it('writes one event per variant while orders cross again and again within the hour, and again once the last is an hour old', async () => {
    const { key, variantId } = await setup();
    const other = await setup();
    for (let i = 0; i < 3; i++) await cancel(key, await orderDown(key, variantId)); // 10 -> 2 -> 10, three times
    await orderDown(other.key, other.variantId); // another variant crossing meanwhile has its own
    const [low, ...more] = await lowEvents(variantId);
    expect(more).toHaveLength(0);
    expect(low!.data).toMatchObject({ variantId, quantity: 2, threshold: 3 });
    expect(await lowEvents(other.variantId)).toHaveLength(1);

    await db()
      .update(events)
      .set({ createdAt: new Date(Date.parse(low!.createdAt) - 61 * 60_000).toISOString() })
      .where(eq(events.id, low!.id));
    await orderDown(key, variantId);
    expect(await lowEvents(variantId)).toHaveLength(2);
  });

  it('counts the hour from the time of the change: 59 minutes later nothing, 61 minutes later a new event', async () => {
    const { key, variantId } = await setup();
    await orderDown(key, variantId); // 2
    const [first] = await lowEvents(variantId);
    const at = (minutes: number) => new Date(Date.parse(first!.createdAt) + minutes * 60_000);
    await restockAndCross(variantId, at(59));
    expect(await lowEvents(variantId)).toHaveLength(1);
    await restockAndCross(variantId, at(61));
    const events = await lowEvents(variantId);
    expect(events.map((e) => e.createdAt)).toEqual([first!.createdAt, at(61).toISOString()]);
  });

  it("looks the last event up in the variant's index of inventory.low events", async () => {
    const { results } = await env.DB.prepare(
      `EXPLAIN QUERY PLAN SELECT 1 FROM events e WHERE e.type = 'inventory.low' AND json_extract(e.data, '$.variantId') = ?1
         AND e.created_at > strftime('%Y-%m-%dT%H:%M:%fZ', ?2, '-1 hour')`,
    )
      .bind('var_x', new Date().toISOString())
      .all<{ detail: string }>();
    expect(results.map((r) => r.detail).join('\n')).toMatch(/SEARCH e USING (COVERING )?INDEX events_inventory_low_variant_idx/);
  });
});
