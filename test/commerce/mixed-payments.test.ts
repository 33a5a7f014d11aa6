import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { payments } from '../../src/db/schema';
import { adminKey, api, createProduct, db, insertUser } from '../helpers';
import { confirmIntent, deliver, signedEvent } from '../payments/stripe-fake';
import { ok } from './return-fixtures';

// One order paid three ways (docs/gift-cards.md, docs/refunds.md): a gift card redeemed in the cart
// is spent at checkout, the customer's store credit pays part, and a card (Stripe) pays the rest.

describe('an order paid by gift card, store credit and card', () => {
  it('takes 25.00 off the card, 30.00 of credit, and the remaining 45.00 by Stripe; the order is processing once all is paid', async () => {
    const key = await adminKey();
    const { user, token } = await insertUser();
    const variantId = (await createProduct(key, { price: 100, stock: 5 })).variants[0].id;
    const card = await ok('/api/gift-cards', { method: 'POST', key, json: { amount: 25, currency: 'USD' } });
    await ok(`/api/customers/${user.id}/credit`, { method: 'POST', key, json: { amount: 30, currency: 'USD', note: 'goodwill' } });

    await ok('/api/carts', { method: 'POST', key: token, json: {} });
    await ok('/api/carts/me/lines', { method: 'POST', key: token, json: { variantId, quantity: 1 } });
    const cart = await ok('/api/carts/me/gift-cards', { method: 'POST', key: token, json: { code: card.code } });
    expect(cart.giftCards).toEqual([expect.objectContaining({ id: card.id, amount: 25 })]);
    const order = await ok('/api/carts/me/checkout', { method: 'POST', key: token });
    expect(order).toMatchObject({ total: 100, amountPaid: 25, status: 'pending' });

    const credit = await ok(`/api/orders/${order.id}/payments`, { method: 'POST', key: token, json: { provider: 'store_credit', amount: 30 } });
    expect(credit).toMatchObject({ provider: 'store_credit', amount: 30, status: 'completed' });
    const stripe = await ok(`/api/orders/${order.id}/payments`, { method: 'POST', key: token, json: { provider: 'stripe' } });
    expect(stripe).toMatchObject({ provider: 'stripe', amount: 45, status: 'pending' });
    const handled = await deliver(await signedEvent('payment_intent.succeeded', await confirmIntent(stripe.providerReference)));
    expect(handled.status, JSON.stringify(handled.body)).toBe(200);

    expect(await ok(`/api/orders/${order.id}`, { key })).toMatchObject({ status: 'processing', amountPaid: 100 });
    const paid = await db().select().from(payments).where(eq(payments.orderId, order.id));
    expect(paid.map((p) => [p.provider, p.amount, p.status]).sort()).toEqual([
      ['gift_card', 2500, 'completed'],
      ['store_credit', 3000, 'completed'],
      ['stripe', 4500, 'completed'],
    ]);
    expect((await ok(`/api/gift-cards/${card.id}`, { key })).balance).toBe(0);
    const wallet = await api(`/api/customers/${user.id}/credit`, { key });
    expect(wallet.body.balances).toEqual([{ currency: 'USD', balance: 0 }]);
  });
});
