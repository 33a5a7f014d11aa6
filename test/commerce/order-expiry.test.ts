import { env } from 'cloudflare:workers';
import { and, asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { events, inventoryAdjustments, orderStatusHistory, orders, productVariants, promotions, promotionUsages } from '../../src/db/schema';
import { couponPromotion } from './coupon-reference';
import type { Bindings } from '../../src/env';
import { interceptD1 } from '../../src/d1/intercept';
import { createDb } from '../../src/db/client';
import { EXPIRY_BATCH, expireUnpaidOrders, overdueOrders, PAYMENT_EXPIRED } from '../../src/modules/payments/order-expiry';
import { placeOrder } from '../../src/modules/orders/place-order';
import { runScheduled } from '../../src/scheduled';
import { adminKey, api, createProduct, db, uid } from '../helpers';

// Unpaid pending orders are cancelled by the minute cron once ORDER_PAYMENT_TTL_MINUTES (60 here,
// from wrangler.toml) have passed. Tests move the cron's clock (`now`) instead of waiting.

const MINUTE_CRON = '* * * * *';
const minutesAfter = (order: { createdAt: string }, minutes: number) => new Date(Date.parse(order.createdAt) + minutes * 60_000);
const expiredBy = async (now: Date, bindings: Bindings = env) => ((await runScheduled(bindings, MINUTE_CRON, now)) as { ordersExpired: number }).ordersExpired;

const stockOf = async (variantId: string) => (await db().select().from(productVariants).where(eq(productVariants.id, variantId)))[0]!.stock;
const orderRow = async (id: string) => (await db().select().from(orders).where(eq(orders.id, id)))[0]!;
const eventsOf = async (orderId: string) => (await db().select().from(events)).filter((e) => e.data.orderId === orderId);

async function setup(stock = 10) {
  const key = await adminKey();
  const product = await createProduct(key, { price: 10, stock });
  return { key, variantId: product.variants[0].id as string };
}

async function order(key: string, variantId: string, extra: Record<string, unknown> = {}) {
  const res = await api('/api/orders', { method: 'POST', key, json: { email: `x-${uid()}@example.test`, lines: [{ variantId, quantity: 2 }], ...extra } });
  if (res.status !== 201) throw new Error(`POST /api/orders answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data as { id: string; createdAt: string; total: number };
}

const pay = (key: string, orderId: string, json: Record<string, unknown> = {}) =>
  api(`/api/orders/${orderId}/payments`, { method: 'POST', key, json: { provider: 'manual', ...json } });

describe('expiry of unpaid orders', () => {
  it('cancels a pending order left unpaid past its time, as the cancel action does: stock, coupon use, history, events', async () => {
    const { key, variantId } = await setup(10);
    const code = `EXP${uid().toUpperCase()}`;
    await db()
      .insert(promotions)
      .values(couponPromotion({ id: `coup_${uid()}`, code, type: 'percentage', value: '10', usageLimit: 1 }));
    const placed = await order(key, variantId, { couponCode: code });
    expect(await stockOf(variantId)).toBe(8);

    expect(await expiredBy(minutesAfter(placed, 59))).toBe(0);
    expect((await orderRow(placed.id)).status).toBe('pending');

    expect(await expiredBy(minutesAfter(placed, 61))).toBe(1);
    expect(await orderRow(placed.id)).toMatchObject({ status: 'cancelled', cancelledAt: minutesAfter(placed, 61).toISOString() });
    expect(await stockOf(variantId)).toBe(10);
    const returned = await db()
      .select()
      .from(inventoryAdjustments)
      .where(and(eq(inventoryAdjustments.orderId, placed.id), eq(inventoryAdjustments.reason, 'cancellation')));
    expect(returned.map((a) => [a.delta, a.actor])).toEqual([[2, 'system']]);
    expect((await db().select().from(promotions).where(eq(promotions.code, code)))[0]!.timesUsed).toBe(0);
    expect(await db().select().from(promotionUsages).where(eq(promotionUsages.orderId, placed.id))).toHaveLength(0);
    const history = await db().select().from(orderStatusHistory).where(eq(orderStatusHistory.orderId, placed.id)).orderBy(asc(orderStatusHistory.createdAt));
    expect(history.at(-1)).toMatchObject({ fromStatus: 'pending', toStatus: 'cancelled', actor: 'system', note: PAYMENT_EXPIRED });
    const written = (await eventsOf(placed.id)).filter((e) => e.type !== 'order.placed');
    expect(written.map((e) => e.type).sort()).toEqual(['order.cancelled', 'order.updated']);
    for (const event of written) expect(event.data).toMatchObject({ orderId: placed.id, status: 'cancelled', previousStatus: 'pending', reason: PAYMENT_EXPIRED });

    expect(await expiredBy(minutesAfter(placed, 62))).toBe(0);
  });

  it('leaves alone orders that are paid, partly paid, or have nothing to pay', async () => {
    const { key, variantId } = await setup(20);
    const paid = await order(key, variantId);
    expect((await pay(key, paid.id)).status).toBe(201);
    const partly = await order(key, variantId);
    expect((await pay(key, partly.id, { amount: 5 })).status).toBe(201);
    const code = `FREE${uid().toUpperCase()}`;
    await db()
      .insert(promotions)
      .values(couponPromotion({ id: `coup_${uid()}`, code, type: 'percentage', value: '100' }));
    const free = await order(key, variantId, { couponCode: code });
    expect(free.total).toBe(0);

    expect(await expiredBy(minutesAfter(free, 24 * 60))).toBe(0);
    expect((await orderRow(paid.id)).status).toBe('processing');
    expect((await orderRow(partly.id)).status).toBe('pending');
    expect((await orderRow(free.id)).status).toBe('processing'); // settled when placed: nothing to pay
    expect(await stockOf(variantId)).toBe(14);
  });

  it('settles a free order a crash left pending between its placement and its settling batch, a minute on', async () => {
    const { variantId } = await setup(5);
    const code = `FREE${uid().toUpperCase()}`;
    await db()
      .insert(promotions)
      .values(couponPromotion({ id: `coup_${uid()}`, code, type: 'percentage', value: '100' }));
    // The order's batch commits, then the process dies before its settling batch: every later write fails.
    let written = false;
    const crashing = interceptD1(env.DB, {
      batch: async (statements, proceed) => {
        if (written && statements.some((s) => s.write)) throw new Error('the isolate died');
        const results = await proceed(statements.map((s) => s.statement));
        if (statements.some((s) => s.write)) written = true;
        return results;
      },
      lone: ({ write, proceed }) => {
        if (written && write) throw new Error('the isolate died');
        return proceed();
      },
    });
    const input = { customerId: null, email: `free-${uid()}@example.test`, lines: [{ variantId, quantity: 1 }], couponCode: code, actor: 'system' };
    await expect(placeOrder(createDb(crashing), input)).rejects.toThrow('the isolate died');
    const [free] = await db().select().from(orders).where(eq(orders.email, input.email));
    expect(free).toMatchObject({ status: 'pending', total: 0 });

    await expiredBy(new Date(Date.parse(free!.createdAt) + 30_000));
    expect((await orderRow(free!.id)).status).toBe('pending'); // not within the first minute: placeOrder may still be settling it
    expect(await expiredBy(minutesAfter(free!, 2))).toBe(0);
    expect((await orderRow(free!.id)).status).toBe('processing');
    const moves = await db().select().from(orderStatusHistory).where(eq(orderStatusHistory.orderId, free!.id));
    expect(moves.filter((m) => m.toStatus === 'processing').map((m) => [m.actor, m.note])).toEqual([['system', 'nothing to pay']]);
  });

  it('takes the time to pay from ORDER_PAYMENT_TTL_MINUTES', async () => {
    const { key, variantId } = await setup(10);
    const placed = await order(key, variantId);
    expect(await expiredBy(minutesAfter(placed, 6))).toBe(0);
    expect(await expiredBy(minutesAfter(placed, 6), { ...env, ORDER_PAYMENT_TTL_MINUTES: '5' })).toBe(1);
    expect(await orderRow(placed.id)).toMatchObject({ status: 'cancelled' });
    expect(await stockOf(variantId)).toBe(10);
  });

  it('loses to a payment that commits between its read and its write: nothing of the cancellation is kept', async () => {
    const { key, variantId } = await setup(10);
    for (const payment of [{ amountPaid: 2000, status: 'processing' as const }, { amountPaid: 500 }]) {
      const placed = await order(key, variantId);
      let paidMeanwhile = false;
      const racing = interceptD1(env.DB, {
        async batch(statements, proceed) {
          if (!paidMeanwhile && statements.some((s) => s.write)) {
            paidMeanwhile = true;
            await db().update(orders).set(payment).where(eq(orders.id, placed.id));
          }
          return proceed(statements.map((s) => s.statement));
        },
      });
      expect(await expireUnpaidOrders({ ...env, DB: racing }, minutesAfter(placed, 61))).toBe(0);
      expect(paidMeanwhile).toBe(true);
      expect(await orderRow(placed.id)).toMatchObject({ status: payment.status ?? 'pending', amountPaid: payment.amountPaid, cancelledAt: null });
      expect((await eventsOf(placed.id)).map((e) => e.type)).toEqual(['order.placed']);
    }
    expect(await stockOf(variantId)).toBe(6);
  });

  it('cancels at most EXPIRY_BATCH orders a run, oldest first, walking the status index', async () => {
    const { variantId } = await setup(EXPIRY_BATCH * 2 + 10);
    const placed = [];
    for (let i = 0; i <= EXPIRY_BATCH; i++) {
      placed.push((await placeOrder(db(), { customerId: null, email: `b-${uid()}@example.test`, lines: [{ variantId, quantity: 1 }], actor: 'system' })).order);
    }
    const newest = [...placed].sort((a, b) => (a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1)).at(-1)!;
    const now = minutesAfter(newest, 61);
    expect(await expiredBy(now)).toBe(EXPIRY_BATCH);
    expect((await orderRow(newest.id)).status).toBe('pending');
    expect(await expiredBy(now)).toBe(1);
    expect((await orderRow(newest.id)).status).toBe('cancelled');

    const { sql, params } = overdueOrders(db(), now.toISOString()).toSQL();
    const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
      .bind(...params)
      .all<{ detail: string }>();
    const plan = results.map((r) => r.detail).join('\n');
    expect(plan).toMatch(/SEARCH orders USING INDEX orders_status_created_idx \(status=\? AND created_at<\?\)/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
  });
});
