import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { events, orderStatusHistory, payments } from '../../src/db/schema';
import { api, db, expectError } from '../helpers';
import { orderRow, placeTestOrder } from './order-fixtures';

const pay = (key: string, orderId: string, json: Record<string, unknown> = {}) =>
  api(`/api/orders/${orderId}/payments`, { method: 'POST', key, json: { provider: 'manual', ...json } });
const eventsOf = async (type: string, orderId: string) => (await db().select().from(events).where(eq(events.type, type))).filter((e) => e.data.orderId === orderId);

describe('paying an order', () => {
  it('defaults to the amount due, completes, emits payment.completed and moves the order to processing', async () => {
    const { order, key } = await placeTestOrder({ quantity: 2, price: 12.5 });
    const res = await pay(key, order.id);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.headers.get('Location')).toBe(`/api/payments/${res.body.data.id}`);
    expect(res.body.data).toMatchObject({ orderId: order.id, provider: 'manual', status: 'completed', amount: 25, amountRefunded: 0, currency: 'USD', failureReason: null });
    expect(res.body.data.providerReference).toMatch(/^manual_pay_/);
    const stored = await orderRow(order.id);
    expect(stored).toMatchObject({ status: 'processing', amountPaid: 2500 });
    const [completed, ...more] = await eventsOf('payment.completed', order.id);
    expect(more).toHaveLength(0);
    expect(completed!.data).toEqual({ paymentId: res.body.data.id, orderId: order.id, orderNumber: order.number, provider: 'manual', amount: 25, currency: 'USD' });
    expect(res.body.data.clientSecret).toBeNull();
    const updated = await eventsOf('order.updated', order.id);
    expect(updated.map((e) => e.data.status)).toEqual(['processing']);
    const history = await db().select().from(orderStatusHistory).where(eq(orderStatusHistory.orderId, order.id));
    expect(history.map((h) => h.toStatus).sort()).toEqual(['pending', 'processing']);
  });

  it('takes partial payments, staying pending until the last one pays the order in full', async () => {
    const { order, key } = await placeTestOrder({ price: 30 });
    const first = await pay(key, order.id, { amount: 10.01, reference: 'bank-123' });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({ amount: 10.01, providerReference: 'bank-123' });
    expect(await orderRow(order.id)).toMatchObject({ status: 'pending', amountPaid: 1001 });
    expect(await eventsOf('order.updated', order.id)).toHaveLength(0);
    const rest = await pay(key, order.id);
    expect(rest.body.data.amount).toBe(19.99);
    expect(await orderRow(order.id)).toMatchObject({ status: 'processing', amountPaid: 3000 });
    expect(await eventsOf('payment.completed', order.id)).toHaveLength(2);
  });

  it('refuses more than is owed, and any payment once nothing is owed', async () => {
    const { order, key } = await placeTestOrder({ price: 20 });
    const over = await pay(key, order.id, { amount: 20.01 });
    expectError(over, 409, 'CONFLICT');
    expect(over.body.error.details).toMatchObject([{ field: 'amount' }]);
    expect(await pay(key, order.id)).toMatchObject({ status: 201 });
    expectError(await pay(key, order.id, { amount: 1 }), 409, 'CONFLICT');
    expectError(await pay(key, order.id), 409, 'CONFLICT');
    expect((await orderRow(order.id)).amountPaid).toBe(2000);
  });

  it('lets exactly one of two concurrent full payments through', async () => {
    const { order, key } = await placeTestOrder({ price: 15 });
    const results = await Promise.all([pay(key, order.id), pay(key, order.id), pay(key, order.id)]);
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect(await orderRow(order.id)).toMatchObject({ amountPaid: 1500, status: 'processing' });
    expect(await eventsOf('payment.completed', order.id)).toHaveLength(1);
    expect(await eventsOf('order.updated', order.id)).toHaveLength(1);
  });

  it('moves the order to processing when concurrent partial payments together pay it in full', async () => {
    const { order, key } = await placeTestOrder({ price: 40 });
    const results = await Promise.all([1, 2, 3, 4].map(() => pay(key, order.id, { amount: 10 })));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect(await orderRow(order.id)).toMatchObject({ amountPaid: 4000, status: 'processing' });
    expect(await eventsOf('order.updated', order.id)).toHaveLength(1);
  });

  it('records a declined charge as a failed payment that takes nothing', async () => {
    const { order, key } = await placeTestOrder({ price: 9 });
    const res = await pay(key, order.id, { details: { simulateFailure: true } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ status: 'failed', amount: 9, failureReason: expect.stringMatching(/Simulated failure/) });
    expect(res.body.message).toMatch(/^Payment failed/);
    expect(await orderRow(order.id)).toMatchObject({ amountPaid: 0, status: 'pending' });
    expect(await eventsOf('payment.completed', order.id)).toHaveLength(0);
    // The failed attempt holds nothing back: the full amount can still be paid.
    expect((await pay(key, order.id)).body.data).toMatchObject({ status: 'completed', amount: 9 });
    const stored = await db().select().from(payments).where(eq(payments.orderId, order.id));
    expect(stored.map((p) => p.status).sort()).toEqual(['completed', 'failed']);
  });

  it('refuses payments on cancelled orders, unknown orders and bad bodies', async () => {
    const { order, key } = await placeTestOrder();
    const { statusChangeStatements } = await import('../../src/modules/ledger/order-status');
    await db().batch(statusChangeStatements(db(), await orderRow(order.id), 'cancelled', { actor: 'system' }) as never);
    expectError(await pay(key, order.id), 409, 'CONFLICT');
    expectError(await pay(key, 'ord_missing'), 404, 'NOT_FOUND');
    const other = await placeTestOrder({ key });
    const bad = await api(`/api/orders/${other.order.id}/payments`, { method: 'POST', key, json: { provider: 'bitcoin', amount: -1, extra: 1 } });
    expectError(bad, 422, 'VALIDATION_ERROR');
    expect(bad.body.error.details.map((d: any) => d.field).sort()).toEqual(['amount', 'extra', 'provider'].sort());
    expectError(await pay(key, other.order.id, { amount: 1.001 }), 422, 'VALIDATION_ERROR');
  });
});
