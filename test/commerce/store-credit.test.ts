import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { events, storeCreditBalances } from '../../src/db/schema';
import { api, db, expectError, insertUser } from '../helpers';
import { orderRow, placeTestOrder } from './order-fixtures';

const credit = (key: string, customerId: string, query = '') => api(`/api/customers/${customerId}/credit${query}`, { key });
const adjust = (key: string, customerId: string, json: Record<string, unknown>) => api(`/api/customers/${customerId}/credit`, { method: 'POST', key, json });
const pay = (key: string, orderId: string, json: Record<string, unknown>) => api(`/api/orders/${orderId}/payments`, { method: 'POST', key, json });
const balanceOf = async (customerId: string) => (await db().select().from(storeCreditBalances).where(eq(storeCreditBalances.customerId, customerId)))[0]?.balance ?? 0;

describe('store credit', () => {
  it('is adjusted by staff as a ledger, read by the customer as me, and never goes below zero', async () => {
    const { user, token } = await insertUser();
    const { key } = await placeTestOrder();
    const added = await adjust(key, user.id, { amount: 25.5, currency: 'USD', note: 'goodwill' });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.data).toMatchObject({ amount: 25.5, balanceAfter: 25.5, currency: 'USD', reason: 'adjustment', note: 'goodwill' });
    expect((await adjust(key, user.id, { amount: -5.5, currency: 'usd', note: 'correction' })).body.data).toMatchObject({ amount: -5.5, balanceAfter: 20 });
    const over = await adjust(key, user.id, { amount: -20.01, currency: 'USD', note: 'too much' });
    expectError(over, 409, 'CONFLICT');
    expect(await balanceOf(user.id)).toBe(2000);

    const mine = await credit(token, 'me');
    expect(mine.status).toBe(200);
    expect(mine.body.balances).toEqual([{ currency: 'USD', balance: 20 }]);
    expect(mine.body.data.map((e: any) => e.amount)).toEqual([-5.5, 25.5]);
    expect(mine.body.pagination).toMatchObject({ total: 2 });
    const changed = (await db().select().from(events).where(eq(events.type, 'store_credit.changed'))).filter((e) => e.data.customerId === user.id);
    expect(changed.map((e) => e.data.amount).sort()).toEqual([-5.5, 25.5]);

    // A customer reads only its own credit and cannot adjust it.
    const other = await insertUser();
    expectError(await credit(other.token, user.id), 404, 'NOT_FOUND');
    expectError(await adjust(token, user.id, { amount: 100, currency: 'USD', note: 'free money' }), 403, 'AUTHORIZATION_ERROR');
    expectError(await adjust(key, user.id, { amount: 1, currency: 'XXX', note: 'unknown currency' }), 422, 'VALIDATION_ERROR');
  });

  it('pays part of an order and a card (manual) pays the rest: the order is paid', async () => {
    const { user, token } = await insertUser();
    const placed = await placeTestOrder({ customer: user.id, price: 30 });
    await adjust(placed.key, user.id, { amount: 12, currency: 'USD', note: 'refund of an old order' });
    const part = await pay(token, placed.order.id, { provider: 'store_credit', amount: 12 });
    expect(part.status, JSON.stringify(part.body)).toBe(201);
    expect(part.body.data).toMatchObject({ provider: 'store_credit', status: 'completed', amount: 12 });
    expect(await orderRow(placed.order.id)).toMatchObject({ status: 'pending', amountPaid: 1200 });
    expect(await balanceOf(user.id)).toBe(0);
    const rest = await pay(placed.key, placed.order.id, { provider: 'manual' });
    expect(rest.body.data).toMatchObject({ status: 'completed', amount: 18 });
    expect(await orderRow(placed.order.id)).toMatchObject({ status: 'processing', amountPaid: 3000 });
    const entries = (await credit(token, 'me')).body.data;
    expect(entries[0]).toMatchObject({ reason: 'spent', amount: -12, balanceAfter: 0, orderId: placed.order.id, paymentId: part.body.data.id });

    // Its refund goes back to store credit, whatever the body says.
    const back = await api(`/api/payments/${part.body.data.id}/refunds`, { method: 'POST', key: placed.key, json: { amount: 5, destination: 'payment' } });
    expect(back.status, JSON.stringify(back.body)).toBe(201);
    expect(back.body.data).toMatchObject({ destination: 'store_credit', status: 'completed', amount: 5 });
    expect(await balanceOf(user.id)).toBe(500);
  });

  it('refuses more than the balance (409, the payment failed) and guest orders (422)', async () => {
    const { user, token } = await insertUser();
    const placed = await placeTestOrder({ customer: user.id, price: 30 });
    await adjust(placed.key, user.id, { amount: 10, currency: 'USD', note: 'some' });
    expectError(await pay(token, placed.order.id, { provider: 'store_credit', amount: 10.01 }), 409, 'CONFLICT');
    expect(await orderRow(placed.order.id)).toMatchObject({ amountPaid: 0 });
    const [failed] = (await api(`/api/orders/${placed.order.id}/payments`, { key: token })).body.data;
    expect(failed).toMatchObject({ provider: 'store_credit', status: 'failed', failureReason: 'Not enough store credit for this amount' });
    const declined = (await db().select().from(events).where(eq(events.type, 'payment.failed'))).filter((e) => e.data.paymentId === failed.id);
    expect(declined).toHaveLength(1);
    expect(await balanceOf(user.id)).toBe(1000);
    const guest = await placeTestOrder();
    expectError(await pay(guest.key, guest.order.id, { provider: 'store_credit', amount: 1 }), 422, 'VALIDATION_ERROR');
  });

  it('20 concurrent payments spending one balance never take more than it holds', async () => {
    const { user, token } = await insertUser();
    const orders = [];
    for (let i = 0; i < 20; i++) orders.push((await placeTestOrder({ customer: user.id, price: 10 })).order);
    await adjust((await placeTestOrder()).key, user.id, { amount: 50, currency: 'USD', note: 'fifty' });
    const results = await Promise.all(orders.map((o) => pay(token, o.id, { provider: 'store_credit', amount: 10 })));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 409)).toHaveLength(15);
    expect(await balanceOf(user.id)).toBe(0);
    const paid = await Promise.all(orders.map((o) => orderRow(o.id)));
    expect(paid.filter((o) => o.amountPaid === 1000 && o.status === 'processing')).toHaveLength(5);
    expect(paid.reduce((sum, o) => sum + o.amountPaid, 0)).toBe(5000);
  });
});
