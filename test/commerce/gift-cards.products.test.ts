import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { giftCards, orderLines, orders } from '../../src/db/schema';
import { adminKey, api, createProduct, db, expectError, insertVendorUser } from '../helpers';

let key: string;
beforeAll(async () => {
  key = await adminKey();
});

/** A guest order of `quantity` units of a new 25.00 product (a gift card unless told), placed and unpaid. */
async function giftCardOrder(quantity: number, giftCard = true) {
  const variantId = (await createProduct(key, { price: 25, stock: 10, giftCard })).variants[0].id;
  const { id, token } = (await api('/api/carts', { method: 'POST', json: { email: 'gifter@example.test' } })).body.data;
  const headers = { 'X-Cart-Token': token };
  expect((await api(`/api/carts/${id}/lines`, { method: 'POST', headers, json: { variantId, quantity } })).status).toBe(200);
  const placed = await api(`/api/carts/${id}/checkout`, { method: 'POST', headers, json: {} });
  expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  return placed.body.data as { id: string; total: number; currency: string };
}
const pay = (orderId: string, json: Record<string, unknown> = {}) => api(`/api/orders/${orderId}/payments`, { method: 'POST', key, json: { provider: 'manual', ...json } });
const cardsOf = (orderId: string) => db().select().from(giftCards).where(eq(giftCards.orderId, orderId));

describe('gift-card products', () => {
  it('paid in full, an order of 2 units of a 25.00 gift-card product issues 2 cards of 25.00 for the order email, linked to its line', async () => {
    const order = await giftCardOrder(2);
    expect(await cardsOf(order.id)).toEqual([]);
    expect((await pay(order.id)).body.data).toMatchObject({ status: 'completed' });
    const [line] = await db().select().from(orderLines).where(eq(orderLines.orderId, order.id));
    const cards = await cardsOf(order.id);
    expect(cards.map((c) => c.id).sort()).toEqual([`gc_${line!.id}_1`, `gc_${line!.id}_2`]);
    for (const card of cards) {
      expect(card).toMatchObject({
        initialAmount: 2500,
        balance: 2500,
        currency: order.currency,
        recipientEmail: 'gifter@example.test',
        orderLineId: line!.id,
        issuedBy: 'system',
        status: 'active',
      });
    }
    const read = (await api(`/api/gift-cards/${cards[0]!.id}`, { key })).body.data;
    expect(read.transactions.map((t: any) => [t.kind, t.amount])).toEqual([['issued', 25]]);
  });

  it('paid in two parts, issues only once fully paid; another payment attempt never issues more', async () => {
    const order = await giftCardOrder(2);
    expect((await pay(order.id, { amount: 20 })).body.data).toMatchObject({ status: 'completed' });
    expect(await cardsOf(order.id)).toEqual([]);
    expect((await pay(order.id)).body.data).toMatchObject({ status: 'completed' });
    expect((await db().select().from(orders).where(eq(orders.id, order.id)))[0]!.status).toBe('processing');
    expect(await cardsOf(order.id)).toHaveLength(2);
    const again = await pay(order.id, { amount: 1 });
    expect(again.status).toBe(409);
    expect(await cardsOf(order.id)).toHaveLength(2);
  });

  it('the completing payment retried with its Idempotency-Key answers the same payment and issues no more', async () => {
    const order = await giftCardOrder(2);
    const headers = { 'Idempotency-Key': `gc-${order.id}` };
    const first = await api(`/api/orders/${order.id}/payments`, { method: 'POST', key, headers, json: { provider: 'manual' } });
    const again = await api(`/api/orders/${order.id}/payments`, { method: 'POST', key, headers, json: { provider: 'manual' } });
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(await cardsOf(order.id)).toHaveLength(2);
  });

  it('an order paid in full by a gift card issues the cards it bought', async () => {
    const order = await giftCardOrder(1);
    const card = (await api('/api/gift-cards', { method: 'POST', key, json: { amount: order.total, currency: order.currency } })).body.data;
    const paid = await api(`/api/orders/${order.id}/payments`, { method: 'POST', key, json: { provider: 'gift_card', code: card.code } });
    expect(paid.body.data).toMatchObject({ status: 'completed' });
    expect(await cardsOf(order.id)).toMatchObject([{ initialAmount: 2500, issuedBy: 'system' }]);
  });

  it('a cancelled unpaid order issues none', async () => {
    const order = await giftCardOrder(1);
    expect((await api(`/api/orders/${order.id}/cancel`, { method: 'POST', key, json: {} })).status).toBe(200);
    expect(await cardsOf(order.id)).toEqual([]);
  });

  it('a product that is not a gift card issues none when paid', async () => {
    const order = await giftCardOrder(1, false);
    expect((await pay(order.id)).body.data).toMatchObject({ status: 'completed' });
    expect(await cardsOf(order.id)).toEqual([]);
  });

  it("refuses a vendor's credential making its product a gift card, on create and on update: a card is the store's money", async () => {
    const vendor = await insertVendorUser();
    const refused = await api('/api/products', { method: 'POST', key: vendor.token, json: { name: 'Vendor card', price: 50, giftCard: true } });
    expectError(refused, 403, 'AUTHORIZATION_ERROR');
    const own = await api('/api/products', { method: 'POST', key: vendor.token, json: { name: 'Vendor mug', price: 12 } });
    expect(own.status).toBe(201);
    expectError(await api(`/api/products/${own.body.data.id}`, { method: 'PATCH', key: vendor.token, json: { giftCard: true } }), 403, 'AUTHORIZATION_ERROR');
    expect((await api(`/api/products/${own.body.data.id}`, { key })).body.data.giftCard).toBe(false);
    // Staff still make gift-card products.
    expect((await api('/api/products', { method: 'POST', key, json: { name: 'Store card', price: 50, giftCard: true } })).status).toBe(201);
  });
});
