import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { events, inventoryAdjustments, orderLines } from '../../src/db/schema';
import type { Principal } from '../../src/lib/access';
import { updateReturn } from '../../src/modules/returns/returns.service';
import { api, db, expectError, insertUser } from '../helpers';
import { placeTwoVendorOrder, vendorKey } from './order-fixtures';
import { deliveredShoes, ok } from './return-fixtures';

// Returns (docs/returns.md): the customer within the window, staff any time; the database refuses
// returning more than was bought even when requests race; receiving restocks exactly what staff chose.

const one = (line: { id: string }, quantity = 1, reason = 'too_small') => ({ lines: [{ orderLineId: line.id, quantity, reason }] });
const STAFF: Principal = { kind: 'api_key', id: 'key_returns_test', role: 'admin', permissions: ['*'], vendorId: null, ownerId: null };
const returned = async (lineId: string) => (await db().select({ q: orderLines.quantityReturned }).from(orderLines).where(eq(orderLines.id, lineId)))[0]!.q;

describe('requesting a return', () => {
  it('lets a customer return 1 of 2 shoes inside the window and refuses it after; staff may any time', async () => {
    const shoes = await deliveredShoes();
    const res = await api(`/api/orders/${shoes.order.id}/returns`, { method: 'POST', key: shoes.token, json: { ...one(shoes.line), note: 'Half a size too small' } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      orderId: shoes.order.id,
      customerId: shoes.customer.id,
      status: 'requested',
      note: 'Half a size too small',
      requestedBy: `user:${shoes.customer.id}`,
      lines: [{ orderLineId: shoes.line.id, quantity: 1, reason: 'too_small', restockedQuantity: 0 }],
    });
    expect(res.headers.get('location')).toBe(`/api/returns/${res.body.data.id}`);
    expect(await returned(shoes.line.id)).toBe(1);

    // 29 days after delivery still inside the default 30; 31 days after, outside.
    await shoes.deliveredDaysAgo(29);
    expect((await api(`/api/orders/${shoes.order.id}/returns`, { method: 'POST', key: shoes.token, json: one(shoes.line) })).status).toBe(201);
    await shoes.deliveredDaysAgo(31);
    const late = await api(`/api/orders/${shoes.order.number}/returns`, { method: 'POST', key: shoes.token, json: one(shoes.line) });
    expectError(late, 409, 'CONFLICT');
    expect(late.body.error.message).toMatch(/return window .* closed .*30 days after it was delivered/);

    // Staff are not bound by the window: the two units are taken, so theirs is refused for quantity only.
    const staff = await api(`/api/orders/${shoes.order.id}/returns`, { method: 'POST', key: shoes.key, json: one(shoes.line) });
    expectError(staff, 409, 'CONFLICT');
    expect(staff.body.error.details[0]).toMatchObject({ field: 'lines.0.quantity', code: 'too_big' });
  });

  it('counts the window in the days the settings give', async () => {
    const shoes = await deliveredShoes();
    await shoes.deliveredDaysAgo(31);
    expectError(await api(`/api/orders/${shoes.order.id}/returns`, { method: 'POST', key: shoes.token, json: one(shoes.line) }), 409, 'CONFLICT');
    await ok('/api/settings', { method: 'PATCH', key: shoes.key, json: { returnWindowDays: 45 } });
    try {
      expect((await ok('/api/settings', { key: shoes.key })).returnWindowDays).toBe(45);
      expect((await api(`/api/orders/${shoes.order.id}/returns`, { method: 'POST', key: shoes.token, json: one(shoes.line) })).status).toBe(201);
      expectError(await api('/api/settings', { method: 'PATCH', key: shoes.key, json: { returnWindowDays: 366 } }), 422, 'VALIDATION_ERROR');
    } finally {
      await ok('/api/settings', { method: 'PATCH', key: shoes.key, json: { returnWindowDays: 30 } });
    }
  });

  it('lets staff return for a customer any time after the window', async () => {
    const shoes = await deliveredShoes();
    await shoes.deliveredDaysAgo(400);
    const res = await api(`/api/orders/${shoes.order.id}/returns`, { method: 'POST', key: shoes.key, json: one(shoes.line, 2, 'defective') });
    expect(res.status).toBe(201);
    expect(res.body.data.customerId).toBe(shoes.customer.id);
  });

  it('refuses through the database a second return beyond the quantity, even when two requests race', async () => {
    const shoes = await deliveredShoes();
    const both = await Promise.all([1, 2].map(() => api(`/api/orders/${shoes.order.id}/returns`, { method: 'POST', key: shoes.token, json: one(shoes.line, 2) })));
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    expectError(both.find((r) => r.status === 409)!, 409, 'CONFLICT');
    expect(await returned(shoes.line.id)).toBe(2);
    const listed = await ok(`/api/returns?order=${shoes.order.id}`, { key: shoes.key });
    expect(listed).toHaveLength(1);
  });

  it('refuses lines of another order, a line twice, unpaid orders, vendor users and other customers', async () => {
    const shoes = await deliveredShoes();
    const other = await deliveredShoes();
    const bad = await api(`/api/orders/${shoes.order.id}/returns`, { method: 'POST', key: shoes.key, json: one(other.line) });
    expectError(bad, 422, 'VALIDATION_ERROR');
    expect(bad.body.error.details[0]).toMatchObject({ field: 'lines.0.orderLineId', code: 'not_found' });
    const twice = { lines: [one(shoes.line).lines[0], one(shoes.line).lines[0]] };
    expectError(await api(`/api/orders/${shoes.order.id}/returns`, { method: 'POST', key: shoes.key, json: twice }), 422, 'VALIDATION_ERROR');
    expectError(await api(`/api/orders/${other.order.id}/returns`, { method: 'POST', key: shoes.token, json: one(other.line) }), 404, 'NOT_FOUND');

    const unpaid = await ok('/api/orders', { method: 'POST', key: shoes.key, json: { customerId: shoes.customer.id, lines: [{ variantId: shoes.variantId, quantity: 1 }] } });
    const pending = await api(`/api/orders/${unpaid.id}/returns`, { method: 'POST', key: shoes.token, json: one(unpaid.lines[0]) });
    expectError(pending, 409, 'CONFLICT');
    expect(pending.body.error.message).toMatch(/is pending/);

    const { vendorA, order, lineA, key } = await placeTwoVendorOrder();
    await ok(`/api/orders/${order.id}/payments`, { method: 'POST', key, json: { provider: 'manual' } });
    expectError(await api(`/api/orders/${order.id}/returns`, { method: 'POST', key: vendorA.token, json: one(lineA) }), 403, 'AUTHORIZATION_ERROR');
    expect(await returned(other.line.id)).toBe(0);
  });
});

describe('moving a return on', () => {
  it("is refunded by the refund that names it, by line, to the cent of what was paid; a refund naming another order's return is refused", async () => {
    const shoes = await deliveredShoes();
    const ret = await ok(`/api/orders/${shoes.order.id}/returns`, { method: 'POST', key: shoes.token, json: one(shoes.line, 1, 'too_small') });
    const patch = (json: unknown) => ok(`/api/returns/${ret.id}`, { method: 'PATCH', key: shoes.key, json });
    await patch({ status: 'approved' });
    await patch({ status: 'received', restock: [{ returnLineId: ret.lines[0].id, quantity: 1 }] });
    const [payment] = await ok(`/api/orders/${shoes.order.id}/payments`, { key: shoes.key });
    const refund = (json: unknown) => api(`/api/payments/${payment.id}/refunds`, { method: 'POST', key: shoes.key, json });

    const other = await deliveredShoes();
    const elsewhere = await ok(`/api/orders/${other.order.id}/returns`, { method: 'POST', key: other.token, json: one(other.line) });
    const refused = await refund({ lines: [{ orderLineId: shoes.line.id, quantity: 1 }], returnId: elsewhere.id });
    expectError(refused, 422, 'VALIDATION_ERROR');
    expect(refused.body.error.details[0]).toMatchObject({ field: 'returnId', code: 'not_found' });

    const refunded = await refund({ lines: [{ orderLineId: shoes.line.id, quantity: 1 }], returnId: ret.id });
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(201);
    expect(refunded.body.data).toMatchObject({ amount: 60, returnId: ret.id, status: 'completed' });
    expect(await ok(`/api/returns/${ret.id}`, { key: shoes.key })).toMatchObject({ status: 'refunded', refundedAt: expect.any(String) });
  });

  it('restocks exactly what staff chose on receipt, once, with an adjustment naming the return', async () => {
    const shoes = await deliveredShoes();
    expect(await shoes.stock()).toBe(8);
    const ret = await ok(`/api/orders/${shoes.order.id}/returns`, { method: 'POST', key: shoes.token, json: one(shoes.line, 2, 'damaged') });
    const patch = (json: unknown) => api(`/api/returns/${ret.id}`, { method: 'PATCH', key: shoes.key, json });
    expectError(await patch({ status: 'received' }), 409, 'CONFLICT');
    expect((await patch({ status: 'approved', resolution: 'Send them to the warehouse' })).body.data).toMatchObject({ status: 'approved', approvedAt: expect.any(String) });
    const tooMany = await patch({ status: 'received', restock: [{ returnLineId: ret.lines[0].id, quantity: 3 }] });
    expectError(tooMany, 422, 'VALIDATION_ERROR');
    expect(tooMany.body.error.details[0]).toMatchObject({ field: 'restock.0.quantity', code: 'too_big' });

    // One pair came back damaged: staff restock the other, and two racing receipts restock it once.
    const receipts = await Promise.all([1, 2].map(() => patch({ status: 'received', restock: [{ returnLineId: ret.lines[0].id, quantity: 1 }] })));
    expect(receipts.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(receipts.find((r) => r.status === 200)!.body.data.lines[0]).toMatchObject({ quantity: 2, restockedQuantity: 1 });
    expect(await shoes.stock()).toBe(9);
    const adjustments = await db()
      .select()
      .from(inventoryAdjustments)
      .where(and(eq(inventoryAdjustments.variantId, shoes.variantId), eq(inventoryAdjustments.reason, 'return')));
    expect(adjustments).toEqual([expect.objectContaining({ delta: 1, orderId: shoes.order.id, note: `return ${ret.id}` })]);
    const read = await ok(`/api/returns/${ret.id}`, { key: shoes.key });
    expect(read).toMatchObject({ status: 'received', resolution: 'Send them to the warehouse', receivedAt: expect.any(String), lines: [{ restockedQuantity: 1 }] });

    expect((await patch({ status: 'refunded' })).body.data).toMatchObject({ status: 'refunded', refundedAt: expect.any(String), closedAt: expect.any(String) });
    expectError(await patch({ status: 'cancelled' }), 409, 'CONFLICT');
    // Received and refunded units stay returned.
    expect(await returned(shoes.line.id)).toBe(2);
  });

  it('restocks once when two receipts race in the same millisecond', async () => {
    const shoes = await deliveredShoes();
    const ret = await ok(`/api/orders/${shoes.order.id}/returns`, { method: 'POST', key: shoes.key, json: one(shoes.line, 2) });
    await ok(`/api/returns/${ret.id}`, { method: 'PATCH', key: shoes.key, json: { status: 'approved' } });
    const sameMoment = new Date();
    const input = { status: 'received' as const, restock: [{ returnLineId: ret.lines[0].id, quantity: 2 }] };
    const settled = await Promise.allSettled([1, 2].map(() => updateReturn(db(), ret.id, input, STAFF, sameMoment)));
    expect(settled.map((s) => s.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(await shoes.stock()).toBe(10);
    const received = (await db().select().from(events)).filter((e) => e.type === 'return.received' && (e.data as { returnId: string }).returnId === ret.id);
    expect(received).toHaveLength(1);
  });

  it('lets a customer cancel its own while requested, giving the units back, and nothing else', async () => {
    const shoes = await deliveredShoes();
    const ret = await ok(`/api/orders/${shoes.order.id}/returns`, { method: 'POST', key: shoes.token, json: one(shoes.line, 2) });
    const patch = (json: unknown, key = shoes.token) => api(`/api/returns/${ret.id}`, { method: 'PATCH', key, json });
    expectError(await patch({ status: 'approved' }), 403, 'AUTHORIZATION_ERROR');
    const stranger = await insertUser();
    expectError(await patch({ status: 'cancelled' }, stranger.token), 404, 'NOT_FOUND');
    expect((await patch({ status: 'cancelled' })).body.data).toMatchObject({ status: 'cancelled', closedAt: expect.any(String) });
    expect(await returned(shoes.line.id)).toBe(0);
    expectError(await patch({ status: 'cancelled' }), 409, 'CONFLICT');

    // The units are free again; a rejected return gives them back too.
    const again = await ok(`/api/orders/${shoes.order.id}/returns`, { method: 'POST', key: shoes.token, json: one(shoes.line, 2) });
    await ok(`/api/returns/${again.id}`, { method: 'PATCH', key: shoes.key, json: { status: 'approved' } });
    // Once approved, only staff can end it.
    expectError(await api(`/api/returns/${again.id}`, { method: 'PATCH', key: shoes.token, json: { status: 'cancelled' } }), 409, 'CONFLICT');
    expect(await ok(`/api/returns/${again.id}`, { method: 'PATCH', key: shoes.key, json: { status: 'rejected', resolution: 'Worn' } })).toMatchObject({
      status: 'rejected',
      resolution: 'Worn',
    });
    expect(await returned(shoes.line.id)).toBe(0);
  });
});

describe('who sees which returns', () => {
  it("shows a customer its own returns only, and another's as 404", async () => {
    const mine = await deliveredShoes();
    const theirs = await deliveredShoes();
    const own = await ok(`/api/orders/${mine.order.id}/returns`, { method: 'POST', key: mine.token, json: one(mine.line) });
    const other = await ok(`/api/orders/${theirs.order.id}/returns`, { method: 'POST', key: theirs.token, json: one(theirs.line) });
    expect((await ok('/api/returns', { key: mine.token })).map((r: { id: string }) => r.id)).toEqual([own.id]);
    expect((await ok(`/api/returns?customer=${theirs.customer.id}`, { key: mine.token })).map((r: { id: string }) => r.id)).toEqual([]);
    expectError(await api(`/api/returns/${other.id}`, { key: mine.token }), 404, 'NOT_FOUND');
    const staff = await ok(`/api/returns?customer=${theirs.customer.id}&status=requested`, { key: mine.key });
    expect(staff.map((r: { id: string }) => r.id)).toEqual([other.id]);
    expect(await ok(`/api/returns?status=received&order=${mine.order.id}`, { key: mine.key })).toEqual([]);
  });

  it('refuses vendors every return, even those holding their own lines: returns move money (403)', async () => {
    const { key, order, vendorA, vendorB, lineA, lineB } = await placeTwoVendorOrder();
    await ok(`/api/orders/${order.id}/payments`, { method: 'POST', key, json: { provider: 'manual' } });
    const post = (json: unknown) => ok(`/api/orders/${order.id}/returns`, { method: 'POST', key, json });
    const both = await post({
      lines: [
        { orderLineId: lineA.id, quantity: 1, reason: 'wrong_item' },
        { orderLineId: lineB.id, quantity: 1, reason: 'defective' },
      ],
    });
    const onlyB = await post(one(lineB, 2, 'defective'));
    for (const credential of [vendorA.token, await vendorKey(vendorA.vendor.id), vendorB.token]) {
      expectError(await api(`/api/returns?order=${order.id}`, { key: credential }), 403, 'AUTHORIZATION_ERROR');
      expectError(await api(`/api/returns/${both.id}`, { key: credential }), 403, 'AUTHORIZATION_ERROR');
      expectError(await api(`/api/returns/${onlyB.id}`, { key: credential }), 403, 'AUTHORIZATION_ERROR');
      expectError(await api(`/api/returns/${both.id}`, { method: 'PATCH', key: credential, json: { status: 'approved' } }), 403, 'AUTHORIZATION_ERROR');
    }
    expect((await ok(`/api/returns?order=${order.id}`, { key })).map((r: { id: string }) => r.id).sort()).toEqual([both.id, onlyB.id].sort());
  });
});

it('emits return.requested, return.approved and return.received through the outbox', async () => {
  const shoes = await deliveredShoes();
  const ret = await ok(`/api/orders/${shoes.order.id}/returns`, { method: 'POST', key: shoes.token, json: { ...one(shoes.line), note: 'Too tight' } });
  await ok(`/api/returns/${ret.id}`, { method: 'PATCH', key: shoes.key, json: { status: 'approved' } });
  await ok(`/api/returns/${ret.id}`, { method: 'PATCH', key: shoes.key, json: { status: 'received', restock: [{ returnLineId: ret.lines[0].id, quantity: 1 }] } });
  const emitted = (await db().select().from(events)).filter((e) => (e.data as { returnId?: string }).returnId === ret.id);
  const line = { orderLineId: shoes.line.id, quantity: 1, reason: 'too_small' };
  const common = { returnId: ret.id, orderId: shoes.order.id, orderNumber: shoes.order.number, customerId: shoes.customer.id };
  expect(emitted.map((e) => [e.type, e.data])).toEqual([
    ['return.requested', { ...common, status: 'requested', note: 'Too tight', lines: [{ ...line, restockedQuantity: 0 }] }],
    ['return.approved', { ...common, status: 'approved', approvedAt: expect.any(String), resolution: null, lines: [{ ...line, restockedQuantity: 0 }] }],
    ['return.received', { ...common, status: 'received', receivedAt: expect.any(String), lines: [{ ...line, restockedQuantity: 1 }] }],
  ]);
});
