import { desc, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { events, orders } from '../../src/db/schema';
import { placeOrder } from '../../src/modules/orders/place-order';
import { adminKey, api, createProduct, db, expectError, insertUser, uid } from '../helpers';

// Order numbers: sequential from ORDER_NUMBER_START, assigned by the order's own batch, and accepted
// wherever an order is looked up.

async function variant(stock = 100) {
  return (await createProduct(await adminKey(), { price: 10, stock })).variants[0].id as string;
}

describe('order numbers', () => {
  it('gives 20 racing orders 20 different consecutive numbers, with the number in order.placed', async () => {
    const key = await adminKey();
    const variantId = await variant();
    const before = (await db().select({ number: orders.number }).from(orders)).map((o) => o.number!);
    const placed = await Promise.all(
      Array.from({ length: 20 }, () => api('/api/orders', { method: 'POST', key, json: { email: `n-${uid()}@example.test`, lines: [{ variantId, quantity: 1 }] } })),
    );
    expect(placed.map((r) => r.status)).toEqual(Array(20).fill(201));
    const numbers = placed.map((r) => r.body.data.number as number).sort((a, b) => a - b);
    const first = Math.max(1000, ...before) + 1;
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => first + i));
    // The answer shows what was stored, and order.placed carries the same number.
    const ids = placed.map((r) => r.body.data.id as string);
    const stored = new Map((await db().select().from(orders).where(inArray(orders.id, ids))).map((o) => [o.id, o.number]));
    for (const r of placed) expect(stored.get(r.body.data.id)).toBe(r.body.data.number);
    const placedEvents = (await db().select().from(events).where(eq(events.type, 'order.placed'))).filter((e) => ids.includes(e.data.orderId as string));
    expect(placedEvents).toHaveLength(20);
    for (const e of placedEvents) expect(e.data.orderNumber).toBe(stored.get(e.data.orderId as string));
  });

  it('does not use up a number on an order that is refused', async () => {
    const key = await adminKey();
    const scarce = await variant(1);
    const first = await api('/api/orders', { method: 'POST', key, json: { email: `n-${uid()}@example.test`, lines: [{ variantId: scarce, quantity: 1 }] } });
    expectError(await api('/api/orders', { method: 'POST', key, json: { email: `n-${uid()}@example.test`, lines: [{ variantId: scarce, quantity: 1 }] } }), 409, 'CONFLICT');
    const next = await api('/api/orders', { method: 'POST', key, json: { email: `n-${uid()}@example.test`, lines: [{ variantId: await variant(), quantity: 1 }] } });
    expect(next.body.data.number).toBe(first.body.data.number + 1);
  });

  it("finds an order by its number as by its id, in the path and with ?number=, within the caller's reach", async () => {
    const key = await adminKey();
    const variantId = await variant();
    const customer = await insertUser();
    const other = await insertUser();
    const placed = (await api('/api/orders', { method: 'POST', key: customer.token, json: { lines: [{ variantId, quantity: 1 }] } })).body.data;
    const { id, number } = placed;
    for (const ref of [id, String(number), encodeURIComponent(`#${number}`)]) {
      const res = await api(`/api/orders/${ref}`, { key: customer.token });
      expect(res.status, ref).toBe(200);
      expect(res.body.data).toMatchObject({ id, number });
    }
    expectError(await api(`/api/orders/${number}`, { key: other.token }), 404, 'NOT_FOUND');
    expectError(await api('/api/orders/999999999', { key }), 404, 'NOT_FOUND');
    const listed = await api(`/api/orders?number=${number}`, { key });
    expect(listed.body.data.map((o: any) => o.id)).toEqual([id]);
    expectError(await api('/api/orders?number=abc', { key }), 400, 'INVALID_REQUEST');
    // The order's sub-resources and actions take the number too.
    const paid = await api(`/api/orders/${number}/payments`, { method: 'POST', key, json: { provider: 'manual' } });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect(paid.body.data.orderId).toBe(id);
    expect((await api(`/api/orders/${number}/payments`, { key })).body.data).toHaveLength(1);
    const noted = await api(`/api/orders/${number}`, { method: 'PATCH', key, json: { notes: 'gift wrap' } });
    expect(noted.body.data, JSON.stringify(noted.body)).toMatchObject({ id, status: 'processing', notes: 'gift wrap' }); // paid in full: processing
    const shipped = await api(`/api/orders/${number}/shipments`, { method: 'POST', key, json: { carrier: 'UPS', status: 'shipped' } });
    expect(shipped.status, JSON.stringify(shipped.body)).toBe(201);
    const shippedEvent = (await db().select().from(events).where(eq(events.type, 'shipment.shipped'))).find((e) => e.data.orderId === id);
    expect(shippedEvent?.data.orderNumber).toBe(number);
    const updated = (await db().select().from(events).where(eq(events.type, 'order.updated'))).filter((e) => e.data.orderId === id);
    expect(updated.length).toBeGreaterThan(0);
    for (const e of updated) expect(e.data.orderNumber).toBe(number);
    const completed = (await db().select().from(events).where(eq(events.type, 'payment.completed'))).find((e) => e.data.orderId === id);
    expect(completed?.data.orderNumber).toBe(number);
  });

  it('starts at ORDER_NUMBER_START when it is above the highest number, and goes on from there', async () => {
    const variantId = await variant();
    const order = (numberStart?: number) =>
      placeOrder(db(), { customerId: null, email: `n-${uid()}@example.test`, lines: [{ variantId, quantity: 1 }], actor: 'system', numberStart });
    const [highest] = await db().select({ number: orders.number }).from(orders).orderBy(desc(orders.number)).limit(1);
    const start = 500_000 + (highest?.number ?? 0);
    expect((await order(start)).order.number).toBe(start);
    expect((await order()).order.number).toBe(start + 1);
    // A start below the numbers in use changes nothing: numbers never go back.
    expect((await order(1001)).order.number).toBe(start + 2);
  });
});
