import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { events, inventoryAdjustments, orderLines, ORDER_STATUSES, type OrderStatus, orders, productVariants, promotions, promotionUsages } from '../../src/db/schema';
import { couponPromotion } from './coupon-reference';
import { violatedGuard } from '../../src/lib/db-guards';
import { cancellationStatements, runStatusChange, assertCancellable } from '../../src/modules/orders/order-changes';
import { canTransition } from '../../src/modules/ledger/order-status';
import { adminKey, api, createProduct, db, expectError, insertUser, insertVendorUser, uid } from '../helpers';

// Changing orders: PATCH status and notes, the cancel action, and what a cancellation gives back.

const stockOf = async (variantId: string) => (await db().select().from(productVariants).where(eq(productVariants.id, variantId)))[0]!.stock;
const eventsOf = async (orderId: string) =>
  (await db().select().from(events))
    .filter((e) => e.data.orderId === orderId)
    .map((e) => e.type)
    .sort();

/** The way the state machine reaches each status from pending, applied straight to the row. */
const PATH: Record<OrderStatus, OrderStatus[]> = {
  pending: [],
  processing: ['processing'],
  shipped: ['processing', 'shipped'],
  completed: ['processing', 'shipped', 'completed'],
  cancelled: ['cancelled'],
  refunded: ['processing', 'refunded'],
};

async function setup(stock = 50) {
  const key = await adminKey();
  const product = await createProduct(key, { price: 10, stock });
  return { key, variantId: product.variants[0].id as string };
}

async function placeOrder(key: string, json: Record<string, unknown>) {
  const res = await api('/api/orders', { method: 'POST', key, json });
  if (res.status !== 201) throw new Error(`POST /api/orders answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data;
}

async function orderIn(key: string, variantId: string, status: OrderStatus, extra: Record<string, unknown> = {}) {
  const order = await placeOrder(key, { email: `s-${uid()}@example.test`, lines: [{ variantId, quantity: 2 }], ...extra });
  for (const step of PATH[status]) await db().update(orders).set({ status: step }).where(eq(orders.id, order.id));
  return order.id as string;
}

const patch = (key: string, id: string, json: unknown) => api(`/api/orders/${id}`, { method: 'PATCH', key, json });
const cancel = (key: string, id: string, json?: unknown) => api(`/api/orders/${id}/cancel`, { method: 'POST', key, ...(json ? { json } : {}) });

describe('PATCH /api/orders/{id} status', () => {
  it('allows exactly the moves of the state machine, and 409s every other one naming the allowed moves', { timeout: 30_000 }, async () => {
    const { key, variantId } = await setup(500);
    for (const from of ORDER_STATUSES) {
      for (const to of ORDER_STATUSES) {
        const id = await orderIn(key, variantId, from);
        const res = await patch(key, id, { status: to });
        if (canTransition(from, to)) {
          expect(res.status, `${from} -> ${to}: ${JSON.stringify(res.body)}`).toBe(200);
          expect(res.body.data.status).toBe(to);
          expect(res.body.data.history.at(-1)).toMatchObject({ fromStatus: from, toStatus: to, actor: expect.stringMatching(/^key:/) });
          expect(await eventsOf(id)).toEqual(to === 'cancelled' ? ['order.cancelled', 'order.placed', 'order.updated'] : ['order.placed', 'order.updated']);
        } else {
          expectError(res, 409, 'CONFLICT');
          expect(res.body.error.message, `${from} -> ${to}`).toMatch(new RegExp(`cannot move from '${from}' to '${to}'`));
          expect((await db().select().from(orders).where(eq(orders.id, id)))[0]!.status).toBe(from);
        }
      }
    }
  });

  it('returns stock and the coupon use when it cancels, exactly as the cancel action does', async () => {
    const { key, variantId } = await setup(10);
    const code = `BACK${uid().toUpperCase()}`;
    await db()
      .insert(promotions)
      .values(couponPromotion({ id: `coup_${uid()}`, code, type: 'percentage', value: '10', usageLimit: 1 }));
    const viaPatch = await orderIn(key, variantId, 'pending', { couponCode: code });
    expect(await stockOf(variantId)).toBe(8);
    const res = await patch(key, viaPatch, { status: 'cancelled' });
    expect(res.status).toBe(200);
    expect(res.body.data.cancelledAt).toEqual(expect.any(String));
    expect(await stockOf(variantId)).toBe(10);
    const [coupon] = await db().select().from(promotions).where(eq(promotions.code, code));
    expect(coupon!.timesUsed).toBe(0);
    expect(await db().select().from(promotionUsages).where(eq(promotionUsages.orderId, viaPatch))).toHaveLength(0);
    // The coupon (limit 1) can be used again.
    await orderIn(key, variantId, 'pending', { couponCode: code });
    expect((await db().select().from(promotions).where(eq(promotions.code, code)))[0]!.timesUsed).toBe(1);
  });

  it('saves notes with no event, and notes with a status in the same change', async () => {
    const { key, variantId } = await setup();
    const id = await orderIn(key, variantId, 'pending');
    const before = (await api(`/api/orders/${id}`, { key })).body.data;
    const res = await patch(key, id, { notes: 'gift wrap' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ notes: 'gift wrap', status: 'pending' });
    expect(res.body.data.updatedAt > before.updatedAt).toBe(true);
    expect(await eventsOf(id)).toEqual(['order.placed']);
    const both = await patch(key, id, { status: 'processing', notes: null });
    expect(both.body.data).toMatchObject({ notes: null, status: 'processing' });
    expect(await eventsOf(id)).toEqual(['order.placed', 'order.updated']);
    // A refused move keeps the notes too: one batch.
    expectError(await patch(key, id, { status: 'completed', notes: 'lost' }), 409, 'CONFLICT');
    expect((await api(`/api/orders/${id}`, { key })).body.data.notes).toBeNull();
  });

  it('needs orders:write: a customer (even on its own order) and a vendor user get 403; unknown ids 404', async () => {
    const { key, variantId } = await setup();
    const customer = await insertUser();
    const own = await placeOrder(customer.token, { lines: [{ variantId, quantity: 1 }] });
    expectError(await patch(customer.token, own.id, { status: 'cancelled' }), 403, 'AUTHORIZATION_ERROR');
    const vendor = await insertVendorUser();
    expectError(await patch(vendor.token, own.id, { status: 'processing' }), 403, 'AUTHORIZATION_ERROR');
    expectError(await patch(key, 'ord_unknown', { status: 'processing' }), 404, 'NOT_FOUND');
    expectError(await patch(key, own.id, { status: 'lost', color: 'red' }), 422, 'VALIDATION_ERROR');
    expect((await api(`/api/orders/${own.id}`, { key })).body.data.status).toBe('pending');
  });
});

describe('POST /api/orders/{id}/cancel', () => {
  it('cancels pending and processing orders and 409s every other status, a cancelled one included', async () => {
    const { key, variantId } = await setup(200);
    for (const status of ORDER_STATUSES) {
      const id = await orderIn(key, variantId, status);
      const res = await cancel(key, id);
      if (status === 'pending' || status === 'processing') expect(res.status, status).toBe(200);
      else expectError(res, 409, 'CONFLICT');
    }
  });

  it('in one change: status, both events, stock back with its history, coupon use back, the reason kept', async () => {
    const { key, variantId } = await setup(10);
    const code = `CXL${uid().toUpperCase()}`;
    await db()
      .insert(promotions)
      .values(couponPromotion({ id: `coup_${uid()}`, code, type: 'fixed', value: '100' }));
    const id = await orderIn(key, variantId, 'pending', { couponCode: code });
    expect((await db().select().from(promotions).where(eq(promotions.code, code)))[0]!.timesUsed).toBe(1);
    const res = await cancel(key, id, { reason: 'changed my mind' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'cancelled', cancelledAt: expect.any(String) });
    expect(res.body.data.history.at(-1)).toMatchObject({ fromStatus: 'pending', toStatus: 'cancelled', note: 'changed my mind' });
    expect(await eventsOf(id)).toEqual(['order.cancelled', 'order.placed', 'order.updated']);
    expect(await stockOf(variantId)).toBe(10);
    const returned = await db()
      .select()
      .from(inventoryAdjustments)
      .where(and(eq(inventoryAdjustments.orderId, id), eq(inventoryAdjustments.reason, 'cancellation')));
    expect(returned.map((a) => a.delta)).toEqual([2]);
    expect((await db().select().from(promotions).where(eq(promotions.code, code)))[0]!.timesUsed).toBe(0);
    expect(await db().select().from(promotionUsages).where(eq(promotionUsages.orderId, id))).toHaveLength(0);
    // A second cancel changes nothing.
    expectError(await cancel(key, id), 409, 'CONFLICT');
    expect(await stockOf(variantId)).toBe(10);
  });

  it('returns only the units not yet shipped', async () => {
    const { key, variantId } = await setup(10);
    const id = await orderIn(key, variantId, 'processing');
    const [line] = (await api(`/api/orders/${id}`, { key })).body.data.lines;
    await db().update(orderLines).set({ quantityShipped: 1 }).where(eq(orderLines.id, line.id));
    expect((await cancel(key, id)).status).toBe(200);
    expect(await stockOf(variantId)).toBe(9);
  });

  it('refuses an order with money on it until it is refunded', async () => {
    const { key, variantId } = await setup();
    const id = await orderIn(key, variantId, 'processing');
    await db().update(orders).set({ amountPaid: 2000 }).where(eq(orders.id, id));
    const res = await cancel(key, id);
    expectError(res, 409, 'CONFLICT');
    expect(res.body.error.message).toMatch(/refund/);
    expectError(await patch(key, id, { status: 'cancelled' }), 409, 'CONFLICT');
    expect((await api(`/api/orders/${id}`, { key })).body.data).toMatchObject({ paymentStatus: 'paid', amountDue: 0, status: 'processing' });
    await db().update(orders).set({ amountRefunded: 2000 }).where(eq(orders.id, id));
    const refunded = await cancel(key, id);
    expect(refunded.status).toBe(200);
    expect(refunded.body.data.paymentStatus).toBe('refunded');
  });

  it("lets a customer cancel its own order while pending only; another's is 404; vendors get 403", async () => {
    const { variantId } = await setup();
    const customer = await insertUser();
    const other = await insertUser();
    const own = await placeOrder(customer.token, { lines: [{ variantId, quantity: 1 }] });
    const theirs = await placeOrder(other.token, { lines: [{ variantId, quantity: 1 }] });
    expectError(await cancel(customer.token, theirs.id), 404, 'NOT_FOUND');
    const vendor = await insertVendorUser();
    expectError(await cancel(vendor.token, own.id), 403, 'AUTHORIZATION_ERROR');
    expectError(await cancel(undefined as never, own.id), 401, 'AUTHENTICATION_ERROR');
    const ok = await cancel(customer.token, own.id);
    expect(ok.status).toBe(200);
    expect(ok.body.data.history.at(-1).actor).toBe(`user:${customer.user.id}`);
    const later = await placeOrder(customer.token, { lines: [{ variantId, quantity: 1 }] });
    await db().update(orders).set({ status: 'processing' }).where(eq(orders.id, later.id));
    const res = await cancel(customer.token, later.id);
    expectError(res, 409, 'CONFLICT');
    expect(res.body.error.message).toMatch(/pending/);
  });

  it('cancels once under concurrency: one 200, the rest 409, stock returned once', async () => {
    const { key, variantId } = await setup(10);
    const id = await orderIn(key, variantId, 'pending');
    const results = await Promise.all(Array.from({ length: 6 }, () => cancel(key, id)));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(5);
    expect(await stockOf(variantId)).toBe(10);
    expect(await eventsOf(id)).toEqual(['order.cancelled', 'order.placed', 'order.updated']);
  });

  it('does not commit a cancellation decided on a stale read: money taken meanwhile aborts it whole', async () => {
    const { key, variantId } = await setup(10);
    const id = await orderIn(key, variantId, 'pending');
    const [stale] = await db().select().from(orders).where(eq(orders.id, id));
    const lines = await db().query.orderLines.findMany({ where: (l, { eq }) => eq(l.orderId, id) });
    const statements = cancellationStatements(db(), stale!, lines, { actor: 'system' });
    await db().update(orders).set({ amountPaid: 500 }).where(eq(orders.id, id));
    await expect(db().batch(statements as never)).rejects.toSatisfy((e) => violatedGuard(e) === 'order_transition');
    await expect(runStatusChange(db(), stale!, statements, (now) => assertCancellable(now))).rejects.toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/refund/) });
    expect(await stockOf(variantId)).toBe(8);
    expect((await db().select().from(orders).where(eq(orders.id, id)))[0]!.status).toBe('pending');
  });
});
