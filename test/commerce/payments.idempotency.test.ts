import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { payments, refunds } from '../../src/db/schema';
import { api, db, expectError } from '../helpers';
import { orderRow, placeTestOrder } from './order-fixtures';

const post = (path: string, key: string, idempotencyKey: string, json: Record<string, unknown>) =>
  api(path, { method: 'POST', key, json, headers: { 'Idempotency-Key': idempotencyKey } });

describe('Idempotency-Key on payments and refunds', () => {
  it('charges once for a repeated payment and replays the first response', async () => {
    const { order, key } = await placeTestOrder({ price: 40 });
    const path = `/api/orders/${order.id}/payments`;
    const first = await post(path, key, `pay-${order.id}`, { provider: 'manual', amount: 10 });
    const again = await post(path, key, `pay-${order.id}`, { provider: 'manual', amount: 10 });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await db().select().from(payments).where(eq(payments.orderId, order.id))).toHaveLength(1);
    expect((await orderRow(order.id)).amountPaid).toBe(1000);
    expectError(await post(path, key, `pay-${order.id}`, { provider: 'manual', amount: 11 }), 409, 'CONFLICT');
  });

  it('refunds once for a repeated refund', async () => {
    const { order, key } = await placeTestOrder({ price: 40 });
    const paid = await api(`/api/orders/${order.id}/payments`, { method: 'POST', key, json: { provider: 'manual' } });
    const path = `/api/payments/${paid.body.data.id}/refunds`;
    const first = await post(path, key, 'refund-once', { amount: 5 });
    const again = await post(path, key, 'refund-once', { amount: 5 });
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(await db().select().from(refunds).where(eq(refunds.orderId, order.id))).toHaveLength(1);
    expect((await orderRow(order.id)).amountRefunded).toBe(500);
  });
});
