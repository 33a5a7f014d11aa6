import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { events, orderLines } from '../../src/db/schema';
import { statusChangeStatements } from '../../src/modules/ledger/order-status';
import { api, db, expectError, insertUser, insertVendorUser } from '../helpers';
import { orderRow, placeTestOrder, type TestOrderOptions } from './order-fixtures';

/** An order placed and paid in full, so `processing`. */
async function processingOrder(options: TestOrderOptions = {}) {
  const placed = await placeTestOrder(options);
  const paid = await api(`/api/orders/${placed.order.id}/payments`, { method: 'POST', key: placed.key, json: { provider: 'manual' } });
  expect(paid.status).toBe(201);
  return placed;
}
const ship = (key: string, orderId: string, json: Record<string, unknown> = {}) => api(`/api/orders/${orderId}/shipments`, { method: 'POST', key, json });
const patch = (key: string, id: string, json: Record<string, unknown>) => api(`/api/shipments/${id}`, { method: 'PATCH', key, json });
const linesOf = async (orderId: string) => db().select().from(orderLines).where(eq(orderLines.orderId, orderId));
const statusEvents = async (orderId: string) =>
  (await db().select().from(events).where(eq(events.type, 'order.updated'))).filter((e) => e.data.orderId === orderId).map((e) => e.data.status);

describe('shipments', () => {
  it('ships part, then the rest: the order becomes shipped; delivering both completes it', async () => {
    const { order, lines, key } = await processingOrder({ quantity: 3, products: 2 });
    const [a, b] = lines;
    const first = await ship(key, order.id, { carrier: 'UPS', trackingNumber: '1Z1', lines: [{ orderLineId: a!.id, quantity: 2 }] });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.headers.get('Location')).toBe(`/api/shipments/${first.body.data.id}`);
    expect(first.body.data).toMatchObject({
      orderId: order.id,
      status: 'pending',
      carrier: 'UPS',
      trackingNumber: '1Z1',
      shippedAt: null,
      lines: [{ orderLineId: a!.id, quantity: 2 }],
    });
    expect((await linesOf(order.id)).every((l) => l.quantityShipped === 0)).toBe(true);

    const shipped = await patch(key, first.body.data.id, { status: 'shipped' });
    expect(shipped.status).toBe(200);
    expect(shipped.body.data).toMatchObject({ status: 'shipped', shippedAt: expect.any(String) });
    expect((await linesOf(order.id)).find((l) => l.id === a!.id)!.quantityShipped).toBe(2);
    expect((await orderRow(order.id)).status).toBe('processing');

    // The rest by default: one unit of line a and three of line b, shipped at once.
    const second = await ship(key, order.id, { status: 'shipped' });
    expect(second.body.data.lines.sort((x: any, y: any) => x.quantity - y.quantity)).toEqual(
      [
        { orderLineId: a!.id, quantity: 1 },
        { orderLineId: b!.id, quantity: 3 },
      ].sort((x, y) => x.quantity - y.quantity),
    );
    expect((await orderRow(order.id)).status).toBe('shipped');
    expectError(await ship(key, order.id), 409, 'CONFLICT');

    expect((await patch(key, first.body.data.id, { status: 'delivered' })).body.data).toMatchObject({ status: 'delivered', deliveredAt: expect.any(String) });
    expect((await orderRow(order.id)).status).toBe('shipped');
    await patch(key, second.body.data.id, { status: 'delivered' });
    expect((await orderRow(order.id)).status).toBe('completed');
    expect((await linesOf(order.id)).map((l) => l.quantityDelivered)).toEqual([3, 3]);
    expect(await statusEvents(order.id)).toEqual(['processing', 'shipped', 'completed']);

    const listed = await api(`/api/orders/${order.id}/shipments`, { key });
    expect(listed.body.data.map((s: any) => s.id)).toEqual([first.body.data.id, second.body.data.id]);
  });

  it('refuses shipments out of order: skipping a step, going back, repeating, and delivered is final', async () => {
    const { order, key } = await processingOrder();
    const s = (await ship(key, order.id)).body.data;
    expectError(await patch(key, s.id, { status: 'delivered' }), 409, 'CONFLICT');
    expectError(await patch(key, s.id, { status: 'pending' }), 409, 'CONFLICT');
    expect((await patch(key, s.id, { status: 'shipped' })).status).toBe(200);
    expectError(await patch(key, s.id, { status: 'shipped' }), 409, 'CONFLICT');
    expectError(await patch(key, s.id, { status: 'pending' }), 409, 'CONFLICT');
    expect((await patch(key, s.id, { status: 'delivered', trackingNumber: 'T-9' })).body.data).toMatchObject({ status: 'delivered', trackingNumber: 'T-9' });
    const final = await patch(key, s.id, { status: 'shipped' });
    expectError(final, 409, 'CONFLICT');
    expect(final.body.error.details).toMatchObject([{ field: 'status' }]);
    expect((await patch(key, s.id, { carrier: 'DHL' })).body.data.carrier).toBe('DHL');
  });

  it('counts a shipment once when two requests ship it at the same time', async () => {
    const { order, key } = await processingOrder({ quantity: 2 });
    const s = (await ship(key, order.id)).body.data;
    const results = await Promise.all([1, 2, 3].map(() => patch(key, s.id, { status: 'shipped' })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect((await linesOf(order.id))[0]!.quantityShipped).toBe(2);
    expect(await statusEvents(order.id)).toEqual(['processing', 'shipped']);
  });

  it('ships only processing or shipped orders, and no more than is left', async () => {
    const pending = await placeTestOrder();
    expectError(await ship(pending.key, pending.order.id), 409, 'CONFLICT');
    const { order, lines, key } = await processingOrder({ quantity: 2 });
    const over = await ship(key, order.id, { lines: [{ orderLineId: lines[0]!.id, quantity: 3 }] });
    expectError(over, 409, 'CONFLICT');
    expect(over.body.error.details).toMatchObject([{ field: 'lines.0.quantity' }]);
    const foreign = await ship(key, order.id, { lines: [{ orderLineId: pending.lines[0]!.id, quantity: 1 }] });
    expectError(foreign, 422, 'VALIDATION_ERROR');
    expect(await ship(key, order.id, { lines: [{ orderLineId: lines[0]!.id, quantity: 2 }] })).toMatchObject({ status: 201 });
    expectError(await ship(key, order.id, { lines: [{ orderLineId: lines[0]!.id, quantity: 1 }] }), 409, 'CONFLICT');
    const cancelled = await processingOrder();
    await db().batch(statusChangeStatements(db(), await orderRow(cancelled.order.id), 'cancelled', { actor: 'system' }) as never);
    expectError(await ship(key, cancelled.order.id), 409, 'CONFLICT');
    expectError(await ship(key, 'ord_missing'), 404, 'NOT_FOUND');
  });

  it('shows customers their own shipments and vendors those of orders with their lines', async () => {
    const customer = await insertUser();
    const vendor = await insertVendorUser();
    const mine = await processingOrder({ customer: customer.user.id, product: { vendorId: vendor.vendor.id } });
    const other = await processingOrder();
    const s = (await ship(mine.key, mine.order.id)).body.data;
    const t = (await ship(other.key, other.order.id)).body.data;
    expect((await api(`/api/shipments/${s.id}`, { key: customer.token })).status).toBe(200);
    expect((await api(`/api/orders/${mine.order.id}/shipments`, { key: customer.token })).body.data).toHaveLength(1);
    expectError(await api(`/api/shipments/${t.id}`, { key: customer.token }), 404, 'NOT_FOUND');
    expectError(await api(`/api/orders/${other.order.id}/shipments`, { key: customer.token }), 404, 'NOT_FOUND');
    expect((await api(`/api/shipments/${s.id}`, { key: vendor.token })).status).toBe(200);
    expectError(await api(`/api/shipments/${t.id}`, { key: vendor.token }), 404, 'NOT_FOUND');
    expectError(await patch(vendor.token, s.id, { status: 'shipped' }), 403, 'AUTHORIZATION_ERROR');
    expectError(await ship(customer.token, mine.order.id), 403, 'AUTHORIZATION_ERROR');
    expectError(await api(`/api/shipments/${s.id}`), 401, 'AUTHENTICATION_ERROR');
  });

  it('creates one shipment for a repeated request with the same Idempotency-Key', async () => {
    const { order, key } = await processingOrder({ quantity: 2 });
    const send = () => api(`/api/orders/${order.id}/shipments`, { method: 'POST', key, json: { carrier: 'UPS' }, headers: { 'Idempotency-Key': `ship-${order.id}` } });
    const [first, again] = [await send(), await send()];
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body.data.id).toBe(first.body.data.id);
    expect((await api(`/api/orders/${order.id}/shipments`, { key })).body.pagination.total).toBe(1);
  });
});
