import { and, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { events, inventoryAdjustments } from '../../src/db/schema';
import { adminKey, api, createProduct, db, insertUser } from '../helpers';
import { insertEndpoint, openChannel } from './receiver-setup';

// inventory.low is inserted by the trigger on inventory_adjustments (migration 0018), not by the
// request's own statements; its id is derived from the adjustment's, noted in advance, so the request
// that placed the order sends it to the real store-events queue like any event it wrote, and the
// delivery reaches a receiver well within LEFTOVER_MS (30 s: no cron sweep involved).

it('delivers the inventory.low of an order crossing the threshold once, under the id derived from its adjustment', { timeout: 60_000 }, async () => {
  const receiver = await openChannel();
  await insertEndpoint({ url: receiver.url, events: ['inventory.low'] });
  const key = await adminKey();
  const crossing = await createProduct(key, { variants: [{ stock: 6, lowStockThreshold: 3 }] });
  const below = await createProduct(key, { variants: [{ stock: 2, lowStockThreshold: 3 }] });
  const { user } = await insertUser();
  const lines = [
    { variantId: crossing.variants[0].id, quantity: 4 }, // 6 -> 2: crosses 3
    { variantId: below.variants[0].id, quantity: 1 }, // 2 -> 1: already below, no event
  ];
  const started = Date.now();
  const placed = await api('/api/orders', { method: 'POST', key, json: { customerId: user.id, lines } });
  expect(placed.status, JSON.stringify(placed.body)).toBe(201);

  const [adjustment] = await db()
    .select()
    .from(inventoryAdjustments)
    .where(and(eq(inventoryAdjustments.orderId, placed.body.data.id), eq(inventoryAdjustments.variantId, crossing.variants[0].id)));
  const eventId = `evt_${adjustment!.id.slice('adj_'.length)}`;

  await expect.poll(async () => (await receiver.requests()).filter((r) => r.answered === 200).length, { timeout: 25_000, interval: 250 }).toBe(1);
  expect(Date.now() - started).toBeLessThan(30_000);
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const requests = await receiver.requests();
  expect(requests).toHaveLength(1);
  expect(JSON.parse(requests[0]!.body)).toMatchObject({
    id: eventId,
    event: 'inventory.low',
    data: { variantId: crossing.variants[0].id, productId: crossing.id, quantity: 2, threshold: 3 },
  });
  const lows = (await db().select().from(events).where(eq(events.type, 'inventory.low'))).filter((e) =>
    [crossing.variants[0].id, below.variants[0].id].includes(e.data.variantId as string),
  );
  expect(lows.map((e) => e.id)).toEqual([eventId]);
  expect(lows[0]!.publishedAt).not.toBeNull();
});
