import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { events } from '../../src/db/schema';
import { outboxEvent } from '../../src/lib/events';
import { pruneEvents } from '../../src/modules/events/events.prune';
import { eventPayload } from '../../src/webhooks/payload';
import { adminKey, api, createProduct, db, expectError, insertUser, insertVendorUser, uid, writeEvent } from '../helpers';

// GET /api/events (docs/webhooks.md, Catching up after downtime): every event as its deliveries
// carried it, walked by cursors that hold while new events arrive, numbered per resource so a
// consumer can drop an older one that arrives late; vendors read their products' alone; pruned
// after EVENT_RETENTION_DAYS.

/** Writes `n` `product.updated` events about `productId` in batches, as requests would. */
async function writeProductEvents(productId: string, n: number) {
  const database = db();
  for (let start = 0; start < n; start += 100) {
    const statements = Array.from({ length: Math.min(100, n - start) }, () => outboxEvent(database, 'product.updated', { productId } as never));
    await database.batch(statements as never);
  }
}

const page = async (key: string, query: string) => {
  const res = await api(`/api/events?${query}`, { key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { data: { id: string; position: number; sequence: number; resourceId: string; event: string }[]; pagination: { hasNext: boolean; total: number } };
};

describe('GET /api/events', () => {
  it('walks 500 events page by page, newest first and oldest first, while new ones arrive: none missed, none twice', async () => {
    const key = await adminKey();
    const productId = `prod_walk_${uid()}`;
    await writeProductEvents(productId, 500);

    // Newest first, `before` the last of each page: events written meanwhile are newer than the walk and stay out of it.
    const seen: string[] = [];
    let cursor = '';
    for (let guard = 0; guard < 10; guard++) {
      const body = await page(key, `resource=${productId}&limit=100${cursor}`);
      seen.push(...body.data.map((e) => e.id));
      if (!body.pagination.hasNext) break;
      await writeProductEvents(productId, 7);
      cursor = `&before=${body.data.at(-1)!.id}`;
    }
    expect(seen).toHaveLength(500);
    expect(new Set(seen).size).toBe(500);

    // Oldest first, `after` the last of each page: the walk ends at the newest, the ones written meanwhile included.
    const caught: { id: string; sequence: number; position: number }[] = [];
    cursor = '';
    for (let guard = 0; guard < 20; guard++) {
      const body = await page(key, `resource=${productId}&sort=position&limit=100${cursor}`);
      caught.push(...body.data);
      if (!body.pagination.hasNext) break;
      await writeProductEvents(productId, 3);
      cursor = `&after=${body.data.at(-1)!.id}`;
    }
    const total = (await db().select({ id: events.id }).from(events).where(eq(events.resourceId, productId))).length;
    expect(caught).toHaveLength(total);
    expect(new Set(caught.map((e) => e.id)).size).toBe(total);
    expect(seen.every((id) => caught.some((e) => e.id === id))).toBe(true);
    // Per resource, sequence counts 1, 2, 3, ... in the order written; positions only grow.
    expect(caught.map((e) => e.sequence)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    expect(caught.every((e, i) => i === 0 || e.position > caught[i - 1]!.position)).toBe(true);
  });

  it("numbers two updates of one order after its placement, and shows each event as its delivery's body", async () => {
    const key = await adminKey();
    const variantId = (await createProduct(key, { price: 12, stock: 5 })).variants[0].id;
    const order = (await api('/api/orders', { method: 'POST', key, json: { email: `seq-${uid()}@example.com`, lines: [{ variantId, quantity: 1 }] } })).body.data;
    await api(`/api/orders/${order.id}/payments`, { method: 'POST', key, json: { provider: 'manual' } });
    expect((await api(`/api/orders/${order.id}`, { method: 'PATCH', key, json: { status: 'shipped' } })).status).toBe(200);

    const body = await page(key, `resource=${order.id}&sort=position`);
    expect(body.data.map((e) => [e.event, e.sequence])).toEqual([
      ['order.placed', 1],
      ['payment.completed', 2],
      ['order.updated', 3],
      ['order.updated', 4],
    ]);
    const orderOnly = await page(key, `resource=${order.id}&type=order.updated`);
    expect(orderOnly.data.map((e) => e.sequence)).toEqual([4, 3]);

    const [row] = await db().select().from(events).where(eq(events.id, body.data[0]!.id));
    const one = await api(`/api/events/${row!.id}`, { key });
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual(JSON.parse(eventPayload(row!)));
    expect(one.body.data).toMatchObject({ id: row!.id, event: 'order.placed', resourceId: order.id, sequence: 1, data: { orderId: order.id } });
    expectError(await api('/api/events/evt_missing', { key }), 404, 'NOT_FOUND');
  });

  it('filters by kinds and prefixes, refuses unknown kinds, and needs events:read', async () => {
    const key = await adminKey();
    const marker = `cust_${uid()}`;
    await writeEvent('customer.registered', { customerId: marker, email: 'x@example.com', name: null });
    await writeEvent('store_credit.changed', { customerId: marker, entryId: 'sce_1', amount: 1, currency: 'USD', reason: 'adjustment' });
    expect((await page(key, `resource=${marker}&type=customer.*`)).data.map((e) => e.event)).toEqual(['customer.registered']);
    expect((await page(key, `resource=${marker}&type=customer.*,store_credit.changed`)).data).toHaveLength(2);
    expect((await page(key, `resource=${marker}&type=store_credit.*`)).data.map((e) => e.event)).toEqual(['store_credit.changed']);
    const bad = await api('/api/events?type=order.nope,widget.*', { key });
    expectError(bad, 400, 'INVALID_REQUEST');
    expect(JSON.stringify(bad.body.error)).toMatch(/order\.nope, widget\.\*/);
    // A cursor naming no event kept (mistyped, or pruned) would walk nowhere and look caught up: 400 instead.
    const lost = await api('/api/events?sort=position&after=evt_pruned_long_ago', { key });
    expectError(lost, 400, 'INVALID_REQUEST');
    expect(lost.body.error.details).toMatchObject({ field: 'after', code: 'not_found' });
    const { token } = await insertUser();
    expectError(await api('/api/events', { key: token }), 403, 'AUTHORIZATION_ERROR');
    expectError(await api('/api/events'), 401, 'AUTHENTICATION_ERROR');
  });

  it("shows a vendor its own products' events and its orders' order events without their amounts; nothing of another vendor's", async () => {
    const key = await adminKey();
    const mine = await insertVendorUser();
    const theirs = await insertVendorUser();
    const own = await createProduct(key, { vendorId: mine.vendor.id, price: 10, stock: 5 });
    const other = await createProduct(key, { vendorId: theirs.vendor.id, price: 20, stock: 5 });
    const seen = await page(mine.token, 'type=product.*&limit=100');
    expect(seen.data.some((e) => e.resourceId === own.id)).toBe(true);
    expect(seen.data.some((e) => e.resourceId === other.id)).toBe(false);

    const order = async (variantId: string) =>
      (await api('/api/orders', { method: 'POST', key, json: { email: `v-${uid()}@example.com`, lines: [{ variantId, quantity: 1 }] } })).body.data;
    const ours = await order(own.variants[0].id);
    const elsewhere = await order(other.variants[0].id);
    await api(`/api/orders/${ours.id}/payments`, { method: 'POST', key, json: { provider: 'manual' } });
    const orderEvents = (await page(mine.token, `type=order.*,payment.*&limit=100`)).data as unknown as { resourceId: string; event: string; data: Record<string, unknown> }[];
    expect(orderEvents.some((e) => e.resourceId === elsewhere.id)).toBe(false);
    const placed = orderEvents.find((e) => e.resourceId === ours.id && e.event === 'order.placed');
    expect(placed?.data).toEqual({ orderId: ours.id, orderNumber: ours.number, status: 'pending' });
    expect(orderEvents.some((e) => e.event.startsWith('payment.'))).toBe(false);
    const [otherEvent] = await db().select().from(events).where(eq(events.resourceId, other.id));
    expectError(await api(`/api/events/${otherEvent!.id}`, { key: mine.token }), 404, 'NOT_FOUND');
  });
});

describe('pruning events', () => {
  it('deletes published events older than the retention, keeps newer ones and any not yet published', async () => {
    const resource = `prod_prune_${uid()}`;
    const at = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000);
    const old = await writeEvent('product.updated', { productId: resource }, at(40));
    const unpublished = await writeEvent('product.updated', { productId: resource }, at(40));
    const recent = await writeEvent('product.updated', { productId: resource }, at(10));
    await db()
      .update(events)
      .set({ publishedAt: at(40).toISOString() })
      .where(eq(events.id, old.id));
    await db()
      .update(events)
      .set({ publishedAt: at(10).toISOString() })
      .where(eq(events.id, recent.id));

    expect(await pruneEvents(db(), 30)).toBeGreaterThanOrEqual(1);
    const left = (await db().select({ id: events.id }).from(events).where(eq(events.resourceId, resource))).map((e) => e.id).sort();
    expect(left).toEqual([unpublished.id, recent.id].sort());
    // A later event about the resource still numbers on from the highest kept.
    const next = await writeEvent('product.updated', { productId: resource });
    expect(next.sequence).toBe(4);
  });
});
