import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { events, payments } from '../../src/db/schema';
import { api, db, expectError } from '../helpers';
import { orderRow, placeTestOrder } from './order-fixtures';

async function paidOrder(price = 50) {
  const placed = await placeTestOrder({ price });
  const res = await api(`/api/orders/${placed.order.id}/payments`, { method: 'POST', key: placed.key, json: { provider: 'manual' } });
  expect(res.status).toBe(201);
  return { ...placed, payment: res.body.data };
}
const refund = (key: string, paymentId: string, json: Record<string, unknown> = {}) => api(`/api/payments/${paymentId}/refunds`, { method: 'POST', key, json });
const paymentRow = async (id: string) => (await db().select().from(payments).where(eq(payments.id, id)))[0]!;
const statusEvents = async (orderId: string) =>
  (await db().select().from(events).where(eq(events.type, 'order.updated'))).filter((e) => e.data.orderId === orderId).map((e) => e.data.status);

describe('refunds', () => {
  it('refunds part of a payment, then the rest, and the order becomes refunded', async () => {
    const { order, payment, key } = await paidOrder(50);
    const part = await refund(key, payment.id, { amount: 20.5, reason: 'damaged box' });
    expect(part.status, JSON.stringify(part.body)).toBe(201);
    expect(part.body.data).toMatchObject({ paymentId: payment.id, orderId: order.id, amount: 20.5, currency: 'USD', reason: 'damaged box' });
    expect(await paymentRow(payment.id)).toMatchObject({ status: 'partially_refunded', amountRefunded: 2050 });
    expect(await orderRow(order.id)).toMatchObject({ status: 'processing', amountRefunded: 2050 });

    const rest = await refund(key, payment.id);
    expect(rest.body.data.amount).toBe(29.5);
    expect(await paymentRow(payment.id)).toMatchObject({ status: 'refunded', amountRefunded: 5000 });
    expect(await orderRow(order.id)).toMatchObject({ status: 'refunded', amountRefunded: 5000 });
    expect(await statusEvents(order.id)).toEqual(['processing', 'refunded']);

    const listed = await api(`/api/payments/${payment.id}/refunds?sort=created_at`, { key });
    expect(listed.body.data.map((r: any) => r.amount)).toEqual([20.5, 29.5]);
    expect(listed.body.pagination).toMatchObject({ total: 2, page: 1 });
    const shown = await api(`/api/payments/${payment.id}`, { key });
    expect(shown.body.data).toMatchObject({ status: 'refunded', amountRefunded: 50 });
  });

  it('refuses to refund more than is left, and anything on a fully refunded payment', async () => {
    const { order, payment, key } = await paidOrder(10);
    const over = await refund(key, payment.id, { amount: 10.01 });
    expectError(over, 409, 'CONFLICT');
    expect(over.body.error.details).toMatchObject([{ field: 'amount' }]);
    expect(await refund(key, payment.id, { amount: 4 })).toMatchObject({ status: 201 });
    expectError(await refund(key, payment.id, { amount: 6.01 }), 409, 'CONFLICT');
    expect(await refund(key, payment.id)).toMatchObject({ status: 201 });
    expectError(await refund(key, payment.id, { amount: 0.01 }), 409, 'CONFLICT');
    expect((await orderRow(order.id)).amountRefunded).toBe(1000);
  });

  it('never over-refunds under concurrency', async () => {
    const { order, payment, key } = await paidOrder(30);
    const results = await Promise.all([1, 2, 3, 4].map(() => refund(key, payment.id, { amount: 10 })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 201, 409]);
    expect(await paymentRow(payment.id)).toMatchObject({ status: 'refunded', amountRefunded: 3000 });
    expect(await orderRow(order.id)).toMatchObject({ status: 'refunded', amountRefunded: 3000 });
    expect(await statusEvents(order.id)).toEqual(['processing', 'refunded']);
  });

  it('does not refund failed payments, and 404s unknown ones', async () => {
    const { order, key } = await placeTestOrder();
    const failed = await api(`/api/orders/${order.id}/payments`, { method: 'POST', key, json: { provider: 'manual', details: { simulateFailure: true } } });
    expectError(await refund(key, failed.body.data.id), 409, 'CONFLICT');
    expectError(await refund(key, 'pay_missing'), 404, 'NOT_FOUND');
    expectError(await refund(key, failed.body.data.id, { amount: 0 }), 422, 'VALIDATION_ERROR');
  });

  it('keeps a pending (part-paid) order pending when its payment is refunded', async () => {
    const { order, key } = await placeTestOrder({ price: 20 });
    const part = await api(`/api/orders/${order.id}/payments`, { method: 'POST', key, json: { provider: 'manual', amount: 5 } });
    expect(await refund(key, part.body.data.id)).toMatchObject({ status: 201 });
    expect(await orderRow(order.id)).toMatchObject({ status: 'pending', amountPaid: 500, amountRefunded: 500 });
  });
});
