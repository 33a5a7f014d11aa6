import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { interceptD1 } from '../../src/d1/intercept';
import { createDb } from '../../src/db/client';
import { giftCardTransactions, orderLines, orders, payments, refunds, returns } from '../../src/db/schema';
import { ApiError } from '../../src/lib/errors';
import { createRefund } from '../../src/modules/payments/refunds.service';
import { recordRefund } from '../../src/modules/ledger/settle';
import { adminKey, api, createProduct, db, expectError, insertUser } from '../helpers';
import { clearFaults, confirmIntent, deliver, injectFault, signedEvent } from '../payments/stripe-fake';
import { cardRow, cardsOf, giftCardProduct, movesOf, paidOrder, payWithCard, percentOff } from './gift-card-fixtures';
import { ok } from './return-fixtures';

// Giving back the money paid for a bought gift card takes the card back (docs/gift-cards.md, Rules):
// its value is revoked in the refund's own batch, the database refuses it when the card was spent.

let key: string;
let card: { productId: string; variantId: string };
beforeAll(async () => {
  key = await adminKey();
  // 100.00 cards sold at 20% off: each is worth the 80.00 paid.
  card = await giftCardProduct(key, 100);
  await percentOff(key, card.productId, 20);
});
afterEach(() => clearFaults());

const refund = (paymentId: string, json: Record<string, unknown>) => api(`/api/payments/${paymentId}/refunds`, { method: 'POST', key, json });
const lineRow = async (id: string) => (await db().select().from(orderLines).where(eq(orderLines.id, id)))[0]!;
const orderRow = async (id: string) => (await db().select().from(orders).where(eq(orders.id, id)))[0]!;
const refundsOf = (orderId: string) => db().select().from(refunds).where(eq(refunds.orderId, orderId));

/** A customer's paid order of `quantity` cards (80.00 each), and the cards it issued. */
async function boughtCards(quantity = 1, customerId?: string) {
  const bought = await paidOrder(key, [{ variantId: card.variantId, quantity }], customerId ? { customerId } : {});
  return { ...bought, cards: await cardsOf(bought.order.id) };
}

/** A new pending order of one 50.00 product (not a gift card), to spend cards on. */
async function otherOrder(price = 50) {
  const product = await createProduct(key, { price, stock: 100 });
  return ok('/api/orders', { method: 'POST', key, json: { email: 'spender@example.test', lines: [{ variantId: product.variants[0].id, quantity: 1 }] } });
}

describe('refunding a bought gift card', () => {
  it('a refund by line takes its value off the card and disables it; the card then pays nothing', async () => {
    const { order, line, payment, cards } = await boughtCards();
    const res = await refund(payment.id, { lines: [{ orderLineId: line.id, quantity: 1 }] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ status: 'completed', amount: 80 });
    expect(await cardRow(cards[0]!.id)).toMatchObject({ balance: 0, status: 'disabled' });
    expect(await movesOf(cards[0]!.id)).toEqual([
      ['issued', 8000],
      ['revoked', -8000],
    ]);
    expect(await orderRow(order.id)).toMatchObject({ status: 'refunded', amountRefunded: 8000 });
    const detail = await ok(`/api/gift-cards/${cards[0]!.id}`, { key });
    expect(detail).toMatchObject({ status: 'disabled', balance: 0 });
    expect(detail.transactions.map((t: { kind: string; amount: number }) => [t.kind, t.amount])).toEqual([
      ['issued', 80],
      ['revoked', -80],
    ]);
    expectError(await payWithCard(key, (await otherOrder()).id, cards[0]!.id), 409, 'CONFLICT');
  });

  it('refunding one of two units takes back the first card only, the last unit the second', async () => {
    const { line, payment, cards } = await boughtCards(2);
    expect(cards.map((c) => c.initialAmount)).toEqual([8000, 8000]);
    expect((await refund(payment.id, { lines: [{ orderLineId: line.id, quantity: 1 }] })).status).toBe(201);
    expect(await cardRow(cards[0]!.id)).toMatchObject({ balance: 0, status: 'disabled' });
    expect(await cardRow(cards[1]!.id)).toMatchObject({ balance: 8000, status: 'active' });
    expect((await refund(payment.id, { lines: [{ orderLineId: line.id, quantity: 1 }] })).status).toBe(201);
    expect(await cardRow(cards[1]!.id)).toMatchObject({ balance: 0, status: 'disabled' });
  });

  it('a card spent in part: the refund is refused with 409 naming the card, and nothing is written', async () => {
    const { order, line, payment, cards } = await boughtCards();
    expect((await payWithCard(key, (await otherOrder()).id, cards[0]!.id, 30)).status).toBe(201);
    const res = await refund(payment.id, { lines: [{ orderLineId: line.id, quantity: 1 }] });
    expectError(res, 409, 'CONFLICT');
    expect(res.body.error.message).toBe(`Gift card ****${cards[0]!.last4} issued by this line has been spent: it holds 50 USD of the 80 USD this refund would take back from it`);
    expect(await refundsOf(order.id)).toEqual([]);
    expect(await lineRow(line.id)).toMatchObject({ quantityRefunded: 0 });
    expect(await cardRow(cards[0]!.id)).toMatchObject({ balance: 5000, status: 'active' });
    expect((await movesOf(cards[0]!.id)).map(([kind]) => kind)).toEqual(['issued', 'spent']);
    expect(await orderRow(order.id)).toMatchObject({ status: 'processing', amountRefunded: 0 });
  });

  it('a refund by amount gives back only what was paid beyond the cards, which only their lines give back', async () => {
    const shoes = await createProduct(key, { price: 40, stock: 100 });
    const { order, payment } = await paidOrder(key, [
      { variantId: card.variantId, quantity: 1 },
      { variantId: shoes.variants[0].id, quantity: 1 },
    ]);
    const cardLine = order.lines.find((l: { productId: string }) => l.productId === card.productId);
    const [issued] = await cardsOf(order.id);
    expect(payment.amount).toBe(120);

    const all = await refund(payment.id, {});
    expectError(all, 409, 'CONFLICT');
    expect(all.body.error.message).toMatch(/^80 USD of order '.+' paid for gift cards it issued, which still hold it: .* 40 USD is left to refund beyond them$/);
    expect((await refund(payment.id, { amount: 40 })).status).toBe(201);
    expectError(await refund(payment.id, { amount: 0.01 }), 409, 'CONFLICT');
    expect(await cardRow(issued!.id)).toMatchObject({ balance: 8000, status: 'active' });

    expect((await refund(payment.id, { lines: [{ orderLineId: cardLine.id, quantity: 1 }] })).status).toBe(201);
    expect(await cardRow(issued!.id)).toMatchObject({ balance: 0, status: 'disabled' });
    expect(await orderRow(order.id)).toMatchObject({ status: 'refunded', amountRefunded: 12000 });
  });

  it('a refund that fails at the provider gives the card its value back, and the card is active again', async () => {
    const { user, token } = await insertUser();
    const placed = await ok('/api/orders', { method: 'POST', key, json: { customerId: user.id, lines: [{ variantId: card.variantId, quantity: 1 }] } });
    const started = await api(`/api/orders/${placed.id}/payments`, { method: 'POST', key: token, json: { provider: 'stripe' } });
    await deliver(await signedEvent('payment_intent.succeeded', await confirmIntent(started.body.data.providerReference)));
    const [issued] = await cardsOf(placed.id);
    expect(issued).toMatchObject({ balance: 8000 });

    await injectFault('POST /v1/refunds', 'fail', 2);
    expectError(await refund(started.body.data.id, { lines: [{ orderLineId: placed.lines[0].id, quantity: 1 }] }), 502, 'PROVIDER_ERROR');
    // Pending, the refund holds the card's value: the card cannot be spent meanwhile.
    expect(await cardRow(issued!.id)).toMatchObject({ balance: 0, status: 'disabled' });

    const [pending] = await refundsOf(placed.id);
    await recordRefund(db(), pending!, { status: 'failed', reference: null, failureReason: 'declined by the bank' }, { actor: 'system' });
    expect(await cardRow(issued!.id)).toMatchObject({ balance: 8000, status: 'active' });
    expect(await movesOf(issued!.id)).toEqual([
      ['issued', 8000],
      ['revoked', -8000],
      ['reinstated', 8000],
    ]);
  });

  it('a refund and a spend of the same card racing: the database lets only one of them take its value', async () => {
    for (let round = 0; round < 4; round++) {
      const { line, payment, cards } = await boughtCards();
      const spending = await otherOrder(80);
      // Started in either order, so each side has both read the card before the other wrote and lost at the trigger.
      const refunding = () => refund(payment.id, { lines: [{ orderLineId: line.id, quantity: 1 }] });
      const paying = () => payWithCard(key, spending.id, cards[0]!.id);
      const [refunded, spent] = round % 2 ? await Promise.all([refunding(), paying()]) : await Promise.all([paying(), refunding()]).then(([p, r]) => [r, p] as const);
      expect([refunded.status, spent.status].sort(), JSON.stringify([refunded.body, spent.body])).toEqual([201, 409]);
      const moves = await movesOf(cards[0]!.id);
      expect(moves).toHaveLength(2);
      expect(moves[1]![0]).toBe(refunded.status === 201 ? 'revoked' : 'spent');
      expect(moves[1]![1]).toBe(-8000);
      expect(await cardRow(cards[0]!.id)).toMatchObject({ balance: 0 });
    }
  });

  it('a spend that commits between the refund reading the card and writing: the database refuses the refund, nothing of it is kept', async () => {
    const { order, line, payment, cards } = await boughtCards();
    const spending = await otherOrder(80);
    let spent: Awaited<ReturnType<typeof payWithCard>> | undefined;
    // The refund's reads see the card whole; the spend lands just before its write batch.
    const binding = interceptD1(env.DB, {
      batch: async (statements, proceed) => {
        if (!spent && statements.some((s) => s.write)) spent = await payWithCard(key, spending.id, cards[0]!.id);
        return proceed(statements.map((s) => s.statement));
      },
    });
    const [paymentRow] = await db().select().from(payments).where(eq(payments.id, payment.id));
    const refusal = await createRefund(createDb(binding), env, paymentRow!, await orderRow(order.id), { lines: [{ orderLineId: line.id, quantity: 1 }] }, { actor: 'system' }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(spent!.status).toBe(201);
    expect(refusal).toBeInstanceOf(ApiError);
    expect((refusal as ApiError).message).toBe(
      `Gift card ****${cards[0]!.last4} issued by this line has been spent: it holds 0 USD of the 80 USD this refund would take back from it`,
    );
    expect(await refundsOf(order.id)).toEqual([]);
    expect(await lineRow(line.id)).toMatchObject({ quantityRefunded: 0 });
    expect(await movesOf(cards[0]!.id)).toEqual([
      ['issued', 8000],
      ['spent', -8000],
    ]);
  });

  it('cancelling a paid order whose money went back outside a refund by line takes back what its cards hold, 409 when one was spent', async () => {
    const kept = await boughtCards();
    const spent = await boughtCards();
    expect((await payWithCard(key, (await otherOrder()).id, spent.cards[0]!.id, 10)).status).toBe(201);
    for (const { order } of [kept, spent]) {
      // As a refund made at the provider leaves it: the money back, no line named.
      await db()
        .update(orders)
        .set({ amountRefunded: order.total * 100 })
        .where(eq(orders.id, order.id));
    }
    const refused = await api(`/api/orders/${spent.order.id}/cancel`, { method: 'POST', key, json: {} });
    expectError(refused, 409, 'CONFLICT');
    expect(refused.body.error.message).toMatch(new RegExp(`^Gift card \\*\\*\\*\\*${spent.cards[0]!.last4} issued by this order has been spent`));
    expect(await orderRow(spent.order.id)).toMatchObject({ status: 'processing' });
    expect(await cardRow(spent.cards[0]!.id)).toMatchObject({ balance: 7000, status: 'active' });

    expect((await api(`/api/orders/${kept.order.id}/cancel`, { method: 'POST', key, json: {} })).status).toBe(200);
    expect(await cardRow(kept.cards[0]!.id)).toMatchObject({ balance: 0, status: 'disabled' });
    expect(await movesOf(kept.cards[0]!.id)).toEqual([
      ['issued', 8000],
      ['revoked', -8000],
    ]);
  });
});

describe('returning a bought gift card', () => {
  const returnOf = (orderId: string, lineId: string, as: string) =>
    api(`/api/orders/${orderId}/returns`, { method: 'POST', key: as, json: { lines: [{ orderLineId: lineId, quantity: 1, reason: 'changed_mind' }] } });

  it('is refused with 409 once the card was spent, and nothing is written', async () => {
    const { user, token } = await insertUser();
    const { order, line, cards } = await boughtCards(1, user.id);
    expect((await payWithCard(key, (await otherOrder()).id, cards[0]!.id, 0.01)).status).toBe(201);
    const res = await returnOf(order.id, line.id, token);
    expectError(res, 409, 'CONFLICT');
    expect(res.body.error.message).toMatch(new RegExp(`^Gift card \\*\\*\\*\\*${cards[0]!.last4} issued by this line has been spent`));
    expect(await db().select().from(returns).where(eq(returns.orderId, order.id))).toEqual([]);
    expect(await lineRow(line.id)).toMatchObject({ quantityReturned: 0 });
  });

  it('is settled by its refund, which takes the card back', async () => {
    const { user, token } = await insertUser();
    const { order, line, payment, cards } = await boughtCards(1, user.id);
    const ret = await returnOf(order.id, line.id, token);
    expect(ret.status, JSON.stringify(ret.body)).toBe(201);
    await ok(`/api/returns/${ret.body.data.id}`, { method: 'PATCH', key, json: { status: 'approved' } });
    await ok(`/api/returns/${ret.body.data.id}`, { method: 'PATCH', key, json: { status: 'received' } });
    // Spent after the return was filed: its refund is refused and the return stays received.
    expect((await payWithCard(key, (await otherOrder()).id, cards[0]!.id, 1)).status).toBe(201);
    expectError(await refund(payment.id, { returnId: ret.body.data.id, lines: [{ orderLineId: line.id, quantity: 1 }] }), 409, 'CONFLICT');
    expect(await ok(`/api/returns/${ret.body.data.id}`, { key })).toMatchObject({ status: 'received' });

    const { order: other, line: otherLine, payment: otherPayment, cards: otherCards } = await boughtCards(1, user.id);
    const back = await returnOf(other.id, otherLine.id, token);
    await ok(`/api/returns/${back.body.data.id}`, { method: 'PATCH', key, json: { status: 'approved' } });
    await ok(`/api/returns/${back.body.data.id}`, { method: 'PATCH', key, json: { status: 'received' } });
    const settled = await refund(otherPayment.id, { returnId: back.body.data.id, lines: [{ orderLineId: otherLine.id, quantity: 1 }] });
    expect(settled.status, JSON.stringify(settled.body)).toBe(201);
    expect(await ok(`/api/returns/${back.body.data.id}`, { key })).toMatchObject({ status: 'refunded' });
    expect(await cardRow(otherCards[0]!.id)).toMatchObject({ balance: 0, status: 'disabled' });
  });

  it('exchanged for other goods, takes the card back too', async () => {
    const { user, token } = await insertUser();
    const { line, order, cards } = await boughtCards(1, user.id);
    const ret = await returnOf(order.id, line.id, token);
    await ok(`/api/returns/${ret.body.data.id}`, { method: 'PATCH', key, json: { status: 'approved' } });
    await ok(`/api/returns/${ret.body.data.id}`, { method: 'PATCH', key, json: { status: 'received' } });
    const mug = await createProduct(key, { price: 50, stock: 10 });
    const exchanged = await api(`/api/returns/${ret.body.data.id}/exchange`, { method: 'POST', key, json: { lines: [{ variantId: mug.variants[0].id, quantity: 1 }] } });
    expect(exchanged.status, JSON.stringify(exchanged.body)).toBe(201);
    expect(exchanged.body.data).toMatchObject({ value: 80, credit: 50 });
    expect(await cardRow(cards[0]!.id)).toMatchObject({ balance: 0, status: 'disabled' });
    const revoked = await db().select().from(giftCardTransactions).where(eq(giftCardTransactions.giftCardId, cards[0]!.id));
    expect(revoked.filter((t) => t.kind === 'revoked').map((t) => t.amount)).toEqual([-8000]);
  });
});
