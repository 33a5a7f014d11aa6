import { eq, sum } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { giftCards, giftCardTransactions, orders, payments } from '../../src/db/schema';
import { giftCardProviderWith } from '../../src/modules/ledger/gift-card-provider';
import { adminKey, api, createProduct, db, expectError } from '../helpers';

let key: string;
beforeAll(async () => {
  key = await adminKey();
});

type Guest = { id: string; token: string };
let ipCounter = 0;
const freshIp = () => `192.0.2.${++ipCounter}`;
const issue = async (amount: number) => (await api('/api/gift-cards', { method: 'POST', key, json: { amount, currency: 'USD' } })).body.data;
const call = (cart: Guest, path: string, method = 'GET', json?: unknown) =>
  api(`/api/carts/${cart.id}${path}`, { method, json, headers: { 'X-Cart-Token': cart.token, 'CF-Connecting-IP': freshIp() } });
const guestCart = async (variantId: string): Promise<Guest> => {
  const { id, token } = (await api('/api/carts', { method: 'POST', json: { email: 'buyer@example.test' } })).body.data;
  expect((await call({ id, token }, '/lines', 'POST', { variantId, quantity: 1 })).status).toBe(200);
  return { id, token };
};
const cardRow = async (id: string) => (await db().select().from(giftCards).where(eq(giftCards.id, id)))[0]!;
const spentOf = async (id: string) =>
  Number(
    (
      await db()
        .select({ total: sum(giftCardTransactions.amount) })
        .from(giftCardTransactions)
        .where(eq(giftCardTransactions.giftCardId, id))
    )[0]!.total,
  );

describe('gift cards at checkout', () => {
  it('a card pays part of the order and the rest is paid by another provider: the order is paid', async () => {
    const variantId = (await createProduct(key, { price: 30, stock: 10 })).variants[0].id;
    const card = await issue(12.5);
    const cart = await guestCart(variantId);
    expect((await call(cart, '/gift-cards', 'POST', { code: card.code })).body.data.amountDue).toBe(17.5);

    const placed = await call(cart, '/checkout', 'POST', {});
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    expect(placed.body.data).toMatchObject({ total: 30, amountPaid: 12.5, status: 'pending' });
    const [cardPayment] = await db().select().from(payments).where(eq(payments.orderId, placed.body.data.id));
    expect(cardPayment).toMatchObject({ provider: 'gift_card', status: 'completed', amount: 1250, providerReference: card.id });
    expect(await cardRow(card.id)).toMatchObject({ balance: 0 });
    const detail = (await api(`/api/gift-cards/${card.id}`, { key })).body.data;
    expect(detail.transactions.map((t: any) => [t.kind, t.amount, t.balanceAfter, t.paymentId])).toEqual([
      ['issued', 12.5, 12.5, null],
      ['spent', -12.5, 0, cardPayment!.id],
    ]);

    const rest = await api(`/api/orders/${placed.body.data.id}/payments`, { method: 'POST', key, json: { provider: 'manual' } });
    expect(rest.body.data).toMatchObject({ status: 'completed', amount: 17.5 });
    expect((await db().select().from(orders).where(eq(orders.id, placed.body.data.id)))[0]).toMatchObject({ amountPaid: 3000, status: 'processing' });
  });

  it('20 concurrent checkouts of 10.00 spending one 50.00 card take exactly 50.00 in all', async () => {
    const variantId = (await createProduct(key, { price: 10, stock: 100 })).variants[0].id;
    const card = await issue(50);
    const carts = await Promise.all(Array.from({ length: 20 }, () => guestCart(variantId)));
    for (const cart of carts) expect((await call(cart, '/gift-cards', 'POST', { code: card.code })).status).toBe(200);

    const placed = await Promise.all(carts.map((cart) => call(cart, '/checkout', 'POST', {})));
    for (const res of placed) expect(res.status, JSON.stringify(res.body)).toBe(201);
    const paid = placed.map((res) => res.body.data.amountPaid as number);
    expect(paid.reduce((a, b) => a + b, 0)).toBe(50);
    expect(paid.filter((p) => p === 10)).toHaveLength(5);

    expect(await cardRow(card.id)).toMatchObject({ balance: 0 });
    expect(await spentOf(card.id)).toBe(0);
    const spends = await db().select().from(giftCardTransactions).where(eq(giftCardTransactions.giftCardId, card.id));
    expect(spends.filter((t) => t.kind === 'spent').reduce((a, t) => a + t.amount, 0)).toBe(-5000);
    const cardPayments = await db().select().from(payments).where(eq(payments.providerReference, card.id));
    expect(cardPayments.reduce((a, p) => a + p.amount, 0)).toBe(5000);
  });

  it('pays an existing order with a code (POST /api/orders/{id}/payments), never more than the card holds', async () => {
    const variantId = (await createProduct(key, { price: 40, stock: 10 })).variants[0].id;
    const card = await issue(15);
    const cart = await guestCart(variantId);
    const order = (await call(cart, '/checkout', 'POST', {})).body.data;
    const pay = (json: Record<string, unknown>) => api(`/api/orders/${order.id}/payments`, { method: 'POST', key, json, headers: { 'CF-Connecting-IP': freshIp() } });

    expectError(await pay({ provider: 'gift_card' }), 422, 'VALIDATION_ERROR');
    expectError(await pay({ provider: 'gift_card', code: card.code, amount: 20 }), 409, 'CONFLICT');
    const first = await pay({ provider: 'gift_card', code: card.code, amount: 5 });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.data).toMatchObject({ provider: 'gift_card', status: 'completed', amount: 5 });
    const second = await pay({ provider: 'gift_card', code: card.code });
    expect(second.body.data).toMatchObject({ status: 'completed', amount: 10 });
    expectError(await pay({ provider: 'gift_card', code: card.code }), 409, 'CONFLICT');
    expect(await cardRow(card.id)).toMatchObject({ balance: 0 });
    expect((await db().select().from(orders).where(eq(orders.id, order.id)))[0]).toMatchObject({ amountPaid: 1500, status: 'pending' });
  });

  it('gives a refunded charge back to the card, once however often asked', async () => {
    const variantId = (await createProduct(key, { price: 8, stock: 10 })).variants[0].id;
    const card = await issue(20);
    const cart = await guestCart(variantId);
    await call(cart, '/gift-cards', 'POST', { code: card.code });
    const order = (await call(cart, '/checkout', 'POST', {})).body.data;
    const [payment] = await db().select().from(payments).where(eq(payments.orderId, order.id));
    expect(await cardRow(card.id)).toMatchObject({ balance: 1200 });

    const refunded = await api(`/api/payments/${payment!.id}/refunds`, { method: 'POST', key, json: { amount: 3 } });
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(201);
    expect(refunded.body.data).toMatchObject({ status: 'completed', amount: 3 });
    expect(await cardRow(card.id)).toMatchObject({ balance: 1500 });

    const refund = { id: 're_giftcard_void', paymentId: payment!.id, orderId: order.id, amount: 800, createdAt: new Date().toISOString() };
    const provider = giftCardProviderWith(db());
    for (let i = 0; i < 2; i++) {
      expect(await provider.refund({ refund: refund as never, payment: payment!, digits: 2 })).toMatchObject({ status: 'completed' });
    }
    expect(await cardRow(card.id)).toMatchObject({ balance: 2300 });
  });
});
