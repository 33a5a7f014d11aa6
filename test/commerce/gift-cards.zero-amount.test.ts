import { asc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { events, orderStatusHistory, payments } from '../../src/db/schema';
import { adminKey, api, createProduct, db, uid } from '../helpers';
import { cardRow, cardsOf, giftCardProduct, percentOff } from './gift-card-fixtures';
import { call, cartOf } from './shopper-cart';

// An order with nothing to pay is settled when placed (docs/gift-cards.md, Rules): it moves on as a
// paid order does, instead of waiting pending for a payment that cannot come.

let key: string;
beforeAll(async () => {
  key = await adminKey();
});

/** A product nobody pays for: an automatic promotion takes all of it off. */
async function freeProduct() {
  const product = await createProduct(key, { price: 25, stock: 10 });
  await percentOff(key, product.id, 100);
  return product.variants[0].id as string;
}

const eventsOf = async (orderId: string) =>
  (await db().select().from(events).orderBy(asc(events.position)))
    .filter((e) => (e.data as { orderId?: string }).orderId === orderId)
    .map((e) => [e.type, (e.data as { status?: string }).status]);
const historyOf = async (orderId: string) =>
  (await db().select().from(orderStatusHistory).where(eq(orderStatusHistory.orderId, orderId)).orderBy(asc(orderStatusHistory.createdAt), sql`from_status IS NOT NULL`)).map(
    (h) => [h.fromStatus, h.toStatus, h.note],
  );

describe('orders with nothing to pay', () => {
  it('a checkout a 100% promotion makes free is settled at once: processing and paid, its move in history and events', async () => {
    const cart = await cartOf([[await freeProduct(), 2]]);
    const placed = await call(cart, '/checkout', 'POST', {});
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    const order = placed.body.data;
    expect(order).toMatchObject({ total: 0, amountPaid: 0, amountDue: 0, status: 'processing', paymentStatus: 'paid' });
    expect(await historyOf(order.id)).toEqual([
      [null, 'pending', null],
      ['pending', 'processing', 'nothing to pay'],
    ]);
    expect(await eventsOf(order.id)).toEqual([
      ['order.placed', 'pending'],
      ['order.updated', 'processing'],
    ]);
    expect(await db().select().from(payments).where(eq(payments.orderId, order.id))).toEqual([]);
  });

  it('POST /api/orders with a 100% code answers with the order settled, its history included', async () => {
    const product = await createProduct(key, { price: 12, stock: 10 });
    const code = `FREE${uid().toUpperCase()}`;
    expect((await api('/api/coupons', { method: 'POST', key, json: { code, type: 'percentage', value: 100 } })).status).toBe(201);
    const res = await api('/api/orders', {
      method: 'POST',
      key,
      json: { email: `free-${uid()}@example.test`, lines: [{ variantId: product.variants[0].id, quantity: 1 }], couponCode: code },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ total: 0, status: 'processing', paymentStatus: 'paid' });
    expect(res.body.data.history.map((h: { toStatus: string }) => h.toStatus)).toEqual(['pending', 'processing']);
    expect((await api(`/api/orders/${res.body.data.id}`, { key })).body.data).toMatchObject({ status: 'processing' });
  });

  it('a gift card applied to a cart promotions made free pays nothing, and the order is settled all the same', async () => {
    const card = (await api('/api/gift-cards', { method: 'POST', key, json: { amount: 20, currency: 'USD' } })).body.data;
    const cart = await cartOf([[await freeProduct(), 1]]);
    expect((await call(cart, '/gift-cards', 'POST', { code: card.code })).body.data.amountDue).toBe(0);
    const placed = await call(cart, '/checkout', 'POST', {});
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    expect(placed.body.data).toMatchObject({ total: 0, amountPaid: 0, status: 'processing' });
    expect(await cardRow(card.id)).toMatchObject({ balance: 2000, status: 'active' });
    expect(await db().select().from(payments).where(eq(payments.orderId, placed.body.data.id))).toEqual([]);
  });

  it('a gift-card product given away issues no card: nothing was paid for it', async () => {
    const giftCard = await giftCardProduct(key, 30);
    await percentOff(key, giftCard.productId, 100);
    const cart = await cartOf([[giftCard.variantId, 1]]);
    const placed = await call(cart, '/checkout', 'POST', {});
    expect(placed.body.data).toMatchObject({ total: 0, status: 'processing' });
    expect(await cardsOf(placed.body.data.id)).toEqual([]);
  });
});
