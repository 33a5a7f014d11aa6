import { describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service';
import { api, db, expectError, insertUser, insertVendorUser } from '../helpers';
import { placeTestOrder } from './order-fixtures';

async function customerWithPaidOrder() {
  const { user, token } = await insertUser();
  const placed = await placeTestOrder({ customer: user.id, price: 12 });
  const paid = await api(`/api/orders/${placed.order.id}/payments`, { method: 'POST', key: placed.key, json: { provider: 'manual' } });
  return { ...placed, user, token, payment: paid.body.data };
}

describe('who reaches payments', () => {
  it("shows a customer its own orders' payments and 404s everyone else's", async () => {
    const mine = await customerWithPaidOrder();
    const theirs = await customerWithPaidOrder();
    const listed = await api('/api/payments', { key: mine.token });
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((p: any) => p.id)).toEqual([mine.payment.id]);
    expect((await api(`/api/payments/${mine.payment.id}`, { key: mine.token })).status).toBe(200);
    expect((await api(`/api/orders/${mine.order.id}/payments`, { key: mine.token })).body.data).toHaveLength(1);
    expectError(await api(`/api/payments/${theirs.payment.id}`, { key: mine.token }), 404, 'NOT_FOUND');
    expectError(await api(`/api/orders/${theirs.order.id}/payments`, { key: mine.token }), 404, 'NOT_FOUND');
    expectError(await api(`/api/payments/${theirs.payment.id}/refunds`, { key: mine.token }), 404, 'NOT_FOUND');
  });

  it('does not let a customer pay or refund with the manual provider', async () => {
    const { token, order, payment } = await customerWithPaidOrder();
    expectError(await api(`/api/orders/${order.id}/payments`, { method: 'POST', key: token, json: { provider: 'manual' } }), 403, 'AUTHORIZATION_ERROR');
    expectError(await api(`/api/payments/${payment.id}/refunds`, { method: 'POST', key: token, json: {} }), 403, 'AUTHORIZATION_ERROR');
  });

  it('refuses vendor users and keys without payments permissions (403), and anonymous callers (401)', async () => {
    const { payment, order } = await customerWithPaidOrder();
    const vendor = await insertVendorUser();
    expectError(await api('/api/payments', { key: vendor.token }), 403, 'AUTHORIZATION_ERROR');
    expectError(await api(`/api/payments/${payment.id}`, { key: vendor.token }), 403, 'AUTHORIZATION_ERROR');
    const ordersOnly = (await createApiKey(db(), { name: 'orders', permissions: ['orders:read'] })).key;
    expectError(await api('/api/payments', { key: ordersOnly }), 403, 'AUTHORIZATION_ERROR');
    expectError(await api('/api/payments'), 401, 'AUTHENTICATION_ERROR');
    expectError(await api(`/api/orders/${order.id}/payments`, { method: 'POST', json: { provider: 'manual' } }), 401, 'AUTHENTICATION_ERROR');
    const reader = (await createApiKey(db(), { name: 'payments', permissions: ['payments:read'] })).key;
    expect((await api(`/api/payments/${payment.id}`, { key: reader })).status).toBe(200);
    expectError(await api(`/api/payments/${payment.id}/refunds`, { method: 'POST', key: reader, json: {} }), 403, 'AUTHORIZATION_ERROR');
  });

  it('filters and sorts the payment list', async () => {
    const { order, key } = await placeTestOrder({ price: 30 });
    for (const amount of [5, 15]) await api(`/api/orders/${order.id}/payments`, { method: 'POST', key, json: { provider: 'manual', amount } });
    await api(`/api/orders/${order.id}/payments`, { method: 'POST', key, json: { provider: 'manual', amount: 1, details: { simulateFailure: true } } });
    const byAmount = await api(`/api/payments?order=${order.id}&status=completed&sort=amount:desc&fields=id,amount`, { key });
    expect(byAmount.body.data.map((p: any) => p.amount)).toEqual([15, 5]);
    expect(Object.keys(byAmount.body.data[0]).sort()).toEqual(['amount', 'id']);
    const failed = await api(`/api/orders/${order.id}/payments?status=failed`, { key });
    expect(failed.body.data.map((p: any) => p.amount)).toEqual([1]);
    const today = new Date().toISOString().slice(0, 10);
    expect((await api(`/api/payments?order=${order.id}&created_before=${today}`, { key })).body.pagination.total).toBe(0);
    expect((await api(`/api/payments?order=${order.id}&created_after=${today}&provider=manual`, { key })).body.pagination.total).toBe(3);
    expectError(await api('/api/payments?sort=provider', { key }), 400, 'INVALID_REQUEST');
  });
});
