import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { events, taxRates } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { adminKey, api, db, uid } from '../helpers';
import { cardRow, cardsOf, codeOf, giftCardProduct, paidOrder, percentOff } from './gift-card-fixtures';
import { call, cartOf } from './shopper-cart';

// A bought gift card is worth what was paid for its unit, after every discount (docs/gift-cards.md, Rules).

let key: string;
beforeAll(async () => {
  key = await adminKey();
});

describe('what a bought gift card is worth', () => {
  it('a 100.00 card bought at 20% off is worth the 80.00 paid, and says so in gift_card.issued', async () => {
    const card = await giftCardProduct(key, 100);
    await percentOff(key, card.productId, 20);
    const { order, line } = await paidOrder(key, [{ variantId: card.variantId, quantity: 1 }]);
    expect(line).toMatchObject({ total: 80 });
    const [issued] = await cardsOf(order.id);
    expect(issued).toMatchObject({ initialAmount: 8000, balance: 8000, status: 'active' });
    const [event] = await db()
      .select()
      .from(events)
      .where(and(eq(events.type, 'gift_card.issued'), eq(events.resourceId, issued!.id)));
    expect(event!.data).toMatchObject({ giftCardId: issued!.id, amount: 80 });
  });

  it('with a 10% code (WELCOME10) a 50.00 card is worth 45.00', async () => {
    const card = await giftCardProduct(key, 50);
    const code = `WELCOME10${uid().toUpperCase()}`;
    expect((await api('/api/coupons', { method: 'POST', key, json: { code, type: 'percentage', value: 10 } })).status).toBe(201);
    const { order } = await paidOrder(key, [{ variantId: card.variantId, quantity: 1 }], { couponCode: code });
    expect(order.total).toBe(45);
    expect((await cardsOf(order.id)).map((c) => c.initialAmount)).toEqual([4500]);
  });

  it('buy two get one free: the three cards share the 200.00 paid to the cent, none worth the list price', async () => {
    const card = await giftCardProduct(key, 100);
    const promotion = await api('/api/promotions', {
      method: 'POST',
      key,
      json: { name: `3 for 2 ${uid()}`, type: 'buy_x_get_y', buyXGetY: { buy: { quantity: 2, productIds: [card.productId] }, get: { quantity: 1, productIds: [card.productId] } } },
    });
    expect(promotion.status, JSON.stringify(promotion.body)).toBe(201);
    const { order, line } = await paidOrder(key, [{ variantId: card.variantId, quantity: 3 }]);
    expect(line).toMatchObject({ total: 200 });
    const cards = await cardsOf(order.id);
    expect(cards.map((c) => c.initialAmount)).toEqual([6667, 6666, 6667]);
    expect(cards.reduce((sum, c) => sum + c.balance, 0)).toBe(20000);
  });

  it('with tax added on top, a card holds what was paid for its unit, its tax included', async () => {
    const region = `G${uid().slice(0, 3).toUpperCase()}`;
    await db()
      .insert(taxRates)
      .values({ id: newId('tax'), name: 'Gift card test tax', country: 'US', region, rate: '19', shippingTaxable: false });
    onTestFinished(async () => void (await db().delete(taxRates).where(eq(taxRates.region, region))));
    const card = await giftCardProduct(key, 50);
    const shippingAddress = { firstName: 'Ada', line1: '1 Main St', city: 'Springfield', region, postalCode: '12345', country: 'US' };
    const { order, line } = await paidOrder(key, [{ variantId: card.variantId, quantity: 2 }], { shippingAddress });
    expect(line).toMatchObject({ subtotal: 100, taxAmount: 19, total: 119 });
    expect((await cardsOf(order.id)).map((c) => c.initialAmount)).toEqual([5950, 5950]);
  });

  it('cards bought with a card bought at a discount do not grow: each round keeps the 80.00 first paid', async () => {
    const card = await giftCardProduct(key, 100);
    await percentOff(key, card.productId, 20);
    const first = await paidOrder(key, [{ variantId: card.variantId, quantity: 1 }]);
    let holding = (await cardsOf(first.order.id))[0]!;
    for (let round = 0; round < 3; round++) {
      const cart = await cartOf([[card.variantId, 1]]);
      expect((await call(cart, '/gift-cards', 'POST', { code: await codeOf(holding.id) })).status).toBe(200);
      const placed = await call(cart, '/checkout', 'POST', {});
      expect(placed.status, JSON.stringify(placed.body)).toBe(201);
      expect(placed.body.data).toMatchObject({ total: 80, amountPaid: 80, status: 'processing' });
      expect(await cardRow(holding.id)).toMatchObject({ balance: 0 });
      const [next] = await cardsOf(placed.body.data.id);
      expect(next).toMatchObject({ initialAmount: 8000, balance: 8000 });
      holding = next!;
    }
  });
});
