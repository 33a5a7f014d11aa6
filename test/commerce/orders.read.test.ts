import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { orders } from '../../src/db/schema';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service';
import { adminKey, api, createProduct, db, expectError, insertUser, insertVendorUser, uid } from '../helpers';

// Reading orders: who sees which orders and lines, list filters and sorts, field selection.

async function variant(key: string, body: Record<string, unknown> = {}) {
  return (await createProduct(key, { price: 10, stock: 100, ...body })).variants[0].id as string;
}
async function place(key: string, json: Record<string, unknown>) {
  const res = await api('/api/orders', { method: 'POST', key, json });
  if (res.status !== 201) throw new Error(`POST /api/orders answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}
const ids = (res: { body: any }) => res.body.data.map((o: any) => o.id);

describe('who sees which orders', () => {
  it("shows a customer only its own orders; another's is 404 like an unknown one", async () => {
    const key = await adminKey();
    const variantId = await variant(key);
    const me = await insertUser();
    const other = await insertUser();
    const mine = await place(me.token, { lines: [{ variantId, quantity: 1 }] });
    const theirs = await place(other.token, { lines: [{ variantId, quantity: 1 }] });
    const list = await api('/api/orders?limit=100', { key: me.token });
    expect(list.status).toBe(200);
    expect(ids(list)).toEqual([mine.id]);
    expect(list.body.pagination.total).toBe(1);
    expect((await api(`/api/orders/${mine.id}`, { key: me.token })).status).toBe(200);
    expectError(await api(`/api/orders/${theirs.id}`, { key: me.token }), 404, 'NOT_FOUND');
    expectError(await api('/api/orders/ord_unknown', { key: me.token }), 404, 'NOT_FOUND');
    // The customer filter cannot widen a customer's reach.
    expect(ids(await api(`/api/orders?customer=${other.user.id}`, { key: me.token }))).toEqual([]);
  });

  it("shows a vendor user only orders with its lines, and in them only its lines, with those lines' totals", async () => {
    const key = await adminKey();
    const mineVendor = await insertVendorUser();
    const otherVendor = await insertVendorUser();
    const ours = await variant(key, { vendorId: mineVendor.vendor.id, price: 5 });
    const theirs = await variant(key, { vendorId: otherVendor.vendor.id, price: 7 });
    const mixed = await place(key, {
      email: `mixed-${uid()}@example.test`,
      lines: [
        { variantId: ours, quantity: 1 },
        { variantId: theirs, quantity: 2 },
      ],
    });
    const foreign = await place(key, { email: `foreign-${uid()}@example.test`, lines: [{ variantId: theirs, quantity: 1 }] });

    const list = await api('/api/orders?limit=100', { key: mineVendor.token });
    expect(list.status).toBe(200);
    expect(ids(list)).toEqual([mixed.id]);
    const seen = list.body.data[0];
    expect(seen.lines.map((l: any) => l.variantId)).toEqual([ours]);
    // 5.00 of its line, not the order's 19.00 (test/commerce/orders.vendor-money.test.ts).
    expect(seen.total).toBe(5);
    const single = await api(`/api/orders/${mixed.id}`, { key: mineVendor.token });
    expect(single.body.data.lines.map((l: any) => l.variantId)).toEqual([ours]);
    expectError(await api(`/api/orders/${foreign.id}`, { key: mineVendor.token }), 404, 'NOT_FOUND');
    // Staff see every line.
    expect((await api(`/api/orders/${mixed.id}`, { key })).body.data.lines).toHaveLength(2);
  });

  it('is 401 without a credential and 403 for a key without orders:read', async () => {
    expectError(await api('/api/orders'), 401, 'AUTHENTICATION_ERROR');
    expectError(await api('/api/orders/ord_x'), 401, 'AUTHENTICATION_ERROR');
    const { key } = await createApiKey(db(), { name: 'catalogue', permissions: ['products:read'] });
    expectError(await api('/api/orders', { key }), 403, 'AUTHORIZATION_ERROR');
    const { key: reader } = await createApiKey(db(), { name: 'orders reader', permissions: ['orders:read'] });
    expect((await api('/api/orders', { key: reader })).status).toBe(200);
  });
});

describe('order lists', () => {
  /** Three orders of one customer at chosen instants, around the day 2031-03-01. */
  async function dated() {
    const key = await adminKey();
    const variantId = await variant(key);
    const { user } = await insertUser();
    const at = ['2031-02-28T23:59:59.999Z', '2031-03-01T00:00:00.000Z', '2031-03-02T00:00:00.000Z'];
    const placed = [];
    for (const [i, createdAt] of at.entries()) {
      const order = await place(key, { customerId: user.id, lines: [{ variantId, quantity: 3 - i }] });
      await db().update(orders).set({ createdAt }).where(eq(orders.id, order.id));
      placed.push(order);
    }
    return { key, customer: user.id, placed: placed.map((o) => o.id) as string[], variantId };
  }

  it('filters by created_after (from the start of the day) and created_before (before the start of the day)', async () => {
    const { key, customer, placed } = await dated();
    const [lateFeb, march1, march2] = placed;
    const q = (params: string) => api(`/api/orders?customer=${customer}&sort=created_at&${params}`, { key });
    expect(ids(await q('created_after=2031-03-01'))).toEqual([march1, march2]);
    expect(ids(await q('created_before=2031-03-01'))).toEqual([lateFeb]);
    expect(ids(await q('created_before=2031-03-02'))).toEqual([lateFeb, march1]);
    expect(ids(await q('created_after=2031-03-01&created_before=2031-03-02'))).toEqual([march1]);
    expect(ids(await q('created_after=2031-03-03'))).toEqual([]);
    expectError(await q('created_after=2031-02-30'), 400, 'INVALID_REQUEST');
    expectError(await q('created_before=yesterday'), 400, 'INVALID_REQUEST');
  });

  it('filters by status and customer, and sorts by created_at, total and status with ties on id', async () => {
    const { key, customer, placed } = await dated();
    const [lateFeb, march1, march2] = placed;
    await api(`/api/orders/${march1}/cancel`, { method: 'POST', key });
    const q = (params: string) => api(`/api/orders?customer=${customer}&${params}`, { key });
    expect(ids(await q('status=cancelled'))).toEqual([march1]);
    expect(ids(await q('status=pending&sort=created_at:desc'))).toEqual([march2, lateFeb]);
    expect(ids(await q(''))).toEqual([march2, march1, lateFeb]); // newest first by default
    // Totals: 30, 20, 10 for 3, 2 and 1 units.
    expect(ids(await q('sort=total'))).toEqual([march2, march1, lateFeb]);
    expect(ids(await q('sort=total:desc'))).toEqual([lateFeb, march1, march2]);
    // cancelled < pending; the two pending orders tie and end on id, in the direction of the last key.
    expect(ids(await q('sort=status,created_at:desc'))).toEqual([march1, march2, lateFeb]);
    expect(ids(await q('sort=status:desc'))).toEqual([march2, lateFeb, march1]);
    expect(ids(await q('sort=status:asc'))).toEqual([march1, lateFeb, march2]);
    expectError(await q('status=lost'), 400, 'INVALID_REQUEST');
    expectError(await q('sort=email'), 400, 'INVALID_REQUEST');
    expectError(await q('vendor=x'), 400, 'INVALID_REQUEST');
  });

  it('pages with a total counted over the whole filter', async () => {
    const { key, customer, placed } = await dated();
    const page2 = await api(`/api/orders?customer=${customer}&sort=created_at&limit=2&page=2`, { key });
    expect(ids(page2)).toEqual([placed[2]]);
    expect(page2.body.pagination).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2, hasNext: false, hasPrev: true });
  });
});

describe('field selection', () => {
  it('returns only the selected fields of each order and of its lines, on lists and single reads', async () => {
    const key = await adminKey();
    const variantId = await variant(key, { sku: `SEL-${uid()}` });
    const { user } = await insertUser();
    const order = await place(key, { customerId: user.id, lines: [{ variantId, quantity: 2 }] });
    const list = await api(`/api/orders?customer=${user.id}&fields=id,total,lines(sku,quantity)`, { key });
    expect(list.status).toBe(200);
    expect(list.body.data).toEqual([{ id: order.id, total: 20, lines: [{ sku: expect.stringMatching(/^SEL-/), quantity: 2 }] }]);
    const single = await api(`/api/orders/${order.id}?fields=id,payment_status,history(to_status)`, { key });
    expect(single.body.data).toEqual({ id: order.id, paymentStatus: 'unpaid', history: [{ toStatus: 'pending' }] });
    const full = await api(`/api/orders/${order.id}`, { key });
    expect(Object.keys(full.body.data)).toEqual(expect.arrayContaining(['lines', 'history', 'amountDue', 'paymentStatus', 'shippingAddress']));
    expectError(await api(`/api/orders?fields=history`, { key }), 400, 'INVALID_REQUEST');
    expectError(await api(`/api/orders/${order.id}?fields=id,secret`, { key }), 400, 'INVALID_REQUEST');
  });
});
