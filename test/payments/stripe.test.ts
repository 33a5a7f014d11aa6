import { env } from 'cloudflare:workers';
import { and, eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { events, payments, providerEvents, refunds } from '../../src/db/schema';
import { placeOrder } from '../../src/modules/orders/place-order';
import { reconcilePending } from '../../src/modules/payments/reconcile';
import { api, db, expectError, insertUser } from '../helpers';
import { orderRow, placeTestOrder } from '../commerce/order-fixtures';
import { clearFaults, confirmIntent, dashboardRefund, deliver, injectFault, signedEvent, stripeRefunds, stripeRequests } from './stripe-fake';

// Card payments through Stripe, against the loopback fake of Stripe's API (stripe-fake.global-setup.mjs)
// and webhook events signed as Stripe signs them. Faults are real: the fake loses answers, and D1
// fails through a trigger a test adds and drops.

const eventsOf = async (type: string, orderId: string) => (await db().select().from(events).where(eq(events.type, type))).filter((e) => e.data.orderId === orderId);
const paymentsOf = (orderId: string) => db().select().from(payments).where(eq(payments.orderId, orderId));
const refundsOf = (paymentId: string) => db().select().from(refunds).where(eq(refunds.paymentId, paymentId));
/** The minute cron's reconciliation, run as if `minutes` had passed. */
const reconcileLater = (minutes = 2) => reconcilePending(env, new Date(Date.now() + minutes * 60_000));

/** A customer's pending order, and a Stripe payment started on it by the customer. */
async function startStripePayment(options: { price?: number; quantity?: number; headers?: Record<string, string> } = {}) {
  const { user, token } = await insertUser();
  const placed = await placeTestOrder({ customer: user.id, price: options.price ?? 12.5, quantity: options.quantity ?? 2 });
  const res = await api(`/api/orders/${placed.order.id}/payments`, { method: 'POST', key: token, headers: options.headers, json: { provider: 'stripe' } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { ...placed, token, res, payment: res.body.data };
}

/** Fails, inside D1, any batch that completes a payment of this order, until dropped. */
async function failCompletionOf(orderId: string) {
  const name = `fail_${orderId.replace(/\W/g, '_')}`;
  await env.DB.exec(
    `CREATE TRIGGER ${name} BEFORE UPDATE OF status ON payments WHEN NEW.status = 'completed' AND NEW.order_id = '${orderId}' BEGIN SELECT RAISE(ABORT, 'injected D1 failure'); END;`,
  );
  return () => env.DB.exec(`DROP TRIGGER ${name};`);
}

afterEach(() => clearFaults());

describe('stripe payments', () => {
  it('starts a PaymentIntent for what is owed, keyed by our payment id, and answers its client secret; asking again returns the same one', async () => {
    const { order, token, res, payment } = await startStripePayment();
    expect(payment).toMatchObject({ provider: 'stripe', status: 'pending', amount: 25, currency: 'USD' });
    expect(payment.providerReference).toMatch(/^pi_/);
    expect(payment.clientSecret).toMatch(new RegExp(`^${payment.providerReference}_secret_`));
    expect(res.body.message).toBe('Payment pending');
    const [created] = await stripeRequests({ key: payment.id });
    expect(created).toMatchObject({ method: 'POST', path: '/v1/payment_intents', idempotencyKey: payment.id });
    expect(created!.params).toMatchObject({ amount: '2500', currency: 'usd', metadata: { payment_id: payment.id, order_id: order.id } });

    const again = await api(`/api/orders/${order.id}/payments`, { method: 'POST', key: token, json: { provider: 'stripe' } });
    expect(again.status).toBe(201);
    expect(again.body.data).toMatchObject({ id: payment.id, providerReference: payment.providerReference, clientSecret: payment.clientSecret });
    expect(await paymentsOf(order.id)).toHaveLength(1);
    expect((await stripeRequests({ intent: payment.providerReference })).filter((r) => r.method === 'POST')).toHaveLength(0);
  });

  it('completes on payment_intent.succeeded: the order is paid and processing, payment.completed once, however often the event comes', async () => {
    const { order, payment } = await startStripePayment();
    const intent = await confirmIntent(payment.providerReference);
    const signed = await signedEvent('payment_intent.succeeded', intent);
    const first = await deliver(signed);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data).toEqual({ received: true, outcome: 'handled' });
    expect(await orderRow(order.id)).toMatchObject({ status: 'processing', amountPaid: 2500 });
    const second = await deliver(signed);
    expect(second.body.data.outcome).toBe('duplicate');
    // Another event with the same news (Stripe may send one) finds the payment settled.
    expect((await deliver(await signedEvent('payment_intent.succeeded', intent))).body.data.outcome).toBe('handled');
    expect(await eventsOf('payment.completed', order.id)).toHaveLength(1);
    expect(await orderRow(order.id)).toMatchObject({ amountPaid: 2500 });
    const stored = (await paymentsOf(order.id))[0]!;
    expect(stored).toMatchObject({ status: 'completed', providerReference: payment.providerReference });
    expect(await db().select().from(providerEvents).where(eq(providerEvents.id, signed.event.id))).toHaveLength(1);
  });

  it('fails on a declined card with the reason, cancels the PaymentIntent, and a new payment can start', async () => {
    const { order, token, payment } = await startStripePayment();
    const declined = await confirmIntent(payment.providerReference, 'declined');
    const res = await deliver(await signedEvent('payment_intent.payment_failed', declined));
    expect(res.status).toBe(200);
    const [stored] = await paymentsOf(order.id);
    expect(stored).toMatchObject({ status: 'failed', failureReason: 'Your card was declined.' });
    const cancel = (await stripeRequests({ intent: payment.providerReference })).find((r) => r.path.endsWith('/cancel'));
    expect(cancel?.idempotencyKey).toBe(`${payment.id}_cancel`);
    expect((await eventsOf('payment.failed', order.id))[0]!.data).toMatchObject({ paymentId: payment.id, failureReason: 'Your card was declined.' });
    expect(await orderRow(order.id)).toMatchObject({ status: 'pending', amountPaid: 0 });

    const retry = await api(`/api/orders/${order.id}/payments`, { method: 'POST', key: token, json: { provider: 'stripe' } });
    expect(retry.status).toBe(201);
    expect(retry.body.data.id).not.toBe(payment.id);
    expect(retry.body.data.providerReference).not.toBe(payment.providerReference);
  });

  it('does not complete a payment whose PaymentIntent succeeded for another amount or currency: failed with the reason, the order unpaid', async () => {
    for (const [change, reported] of [
      [{ amount: 100, amount_received: 100 }, '100 usd'],
      [{ currency: 'eur' }, '2500 eur'],
    ] as const) {
      const { order, token, payment } = await startStripePayment();
      const intent = await confirmIntent(payment.providerReference);
      const res = await deliver(await signedEvent('payment_intent.succeeded', { ...intent, ...change }));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const [stored] = await paymentsOf(order.id);
      expect(stored!.status).toBe('failed');
      expect(stored!.failureReason).toContain(`Stripe reports ${reported}`);
      expect(stored!.failureReason).toContain('2500 usd');
      expect(await orderRow(order.id)).toMatchObject({ status: 'pending', amountPaid: 0 });
      expect(await eventsOf('payment.completed', order.id)).toHaveLength(0);
      expect((await eventsOf('payment.failed', order.id))[0]!.data).toMatchObject({ paymentId: payment.id });
      // A refund of that charge at Stripe changes nothing here: the store never counted the money.
      await dashboardRefund(payment.providerReference, 100);
      const refunded = await deliver(
        await signedEvent('charge.refunded', { id: 'ch_test', object: 'charge', payment_intent: payment.providerReference, amount_refunded: 100, refunded: true }),
      );
      expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
      expect(await refundsOf(payment.id)).toHaveLength(0);
      expect(await orderRow(order.id)).toMatchObject({ status: 'pending', amountPaid: 0, amountRefunded: 0 });
      // The customer can pay the order with a new payment.
      const retry = await api(`/api/orders/${order.id}/payments`, { method: 'POST', key: token, json: { provider: 'stripe' } });
      expect(retry.status).toBe(201);
      expect(retry.body.data.id).not.toBe(payment.id);
    }
  });

  it('refuses an event whose signature does not verify (400), and changes nothing', async () => {
    const { order, payment } = await startStripePayment();
    const intent = await confirmIntent(payment.providerReference);
    const forged = await signedEvent('payment_intent.succeeded', intent, { secret: 'whsec_not_the_store_s' });
    expectError(await deliver(forged), 400, 'INVALID_REQUEST');
    const tampered = await signedEvent('payment_intent.succeeded', intent);
    expectError(await deliver({ header: tampered.header, payload: tampered.payload.replace('"succeeded"', '"succeeded" ') }), 400, 'INVALID_REQUEST');
    const stale = await signedEvent('payment_intent.succeeded', intent, { timestamp: Math.floor(Date.now() / 1000) - 301 });
    expectError(await deliver(stale), 400, 'INVALID_REQUEST');
    expectError(await api('/api/payments/stripe/webhook', { method: 'POST', json: { id: 'evt_x', type: 'payment_intent.succeeded' } }), 400, 'INVALID_REQUEST');
    expect((await paymentsOf(order.id))[0]!.status).toBe('pending');
    expect(await orderRow(order.id)).toMatchObject({ status: 'pending', amountPaid: 0 });
    expect(await db().select().from(providerEvents).where(eq(providerEvents.id, forged.event.id))).toHaveLength(0);
  });

  it('answers 409 to an event for a payment it has not written yet, so Stripe sends it again, and handles it then', async () => {
    const { payment, order } = await startStripePayment();
    const intent = await confirmIntent(payment.providerReference);
    const early = await signedEvent('payment_intent.succeeded', { ...intent, metadata: { ...intent.metadata, payment_id: 'pay_01JD0000000000000000000000' } });
    expectError(await deliver(early), 409, 'CONFLICT');
    expect(await db().select().from(providerEvents).where(eq(providerEvents.id, early.event.id))).toHaveLength(0);
    // Written now (here: the real one), Stripe's retry of the same event id is handled.
    const retried = await signedEvent('payment_intent.succeeded', intent, { id: early.event.id });
    expect((await deliver(retried)).body.data.outcome).toBe('handled');
    expect(await orderRow(order.id)).toMatchObject({ status: 'processing' });
  });

  it('settles by reconciliation when D1 fails after Stripe took the money', async () => {
    const { order, payment } = await startStripePayment();
    const intent = await confirmIntent(payment.providerReference);
    const restore = await failCompletionOf(order.id);
    const res = await deliver(await signedEvent('payment_intent.succeeded', intent));
    expect(res.status).toBe(500);
    expect((await paymentsOf(order.id))[0]!.status).toBe('pending');
    await restore();
    // Not yet a minute old: left alone.
    expect((await reconcilePending(env)).paymentsSettled).toBe(0);
    const settled = await reconcileLater();
    expect(settled.paymentsSettled).toBeGreaterThanOrEqual(1);
    expect((await paymentsOf(order.id))[0]).toMatchObject({ status: 'completed' });
    expect(await orderRow(order.id)).toMatchObject({ status: 'processing', amountPaid: 2500 });
    expect(await eventsOf('payment.completed', order.id)).toHaveLength(1);
    expect((await reconcileLater()).paymentsSettled).toBe(0);
    expect(await eventsOf('payment.completed', order.id)).toHaveLength(1);
  });

  it('keeps a PaymentIntent whose creation answer was lost, and finds it again under the same key', async () => {
    const { user, token } = await insertUser();
    const { order } = await placeTestOrder({ customer: user.id, price: 9 });
    await injectFault('POST /v1/payment_intents', 'lose-answer', 2);
    const lost = await api(`/api/orders/${order.id}/payments`, { method: 'POST', key: token, headers: { 'Idempotency-Key': `lost-${order.id}` }, json: { provider: 'stripe' } });
    expectError(lost, 502, 'PROVIDER_ERROR');
    const [pending] = await paymentsOf(order.id);
    expect(pending).toMatchObject({ status: 'pending', providerReference: null });
    const retry = await api(`/api/orders/${order.id}/payments`, { method: 'POST', key: token, headers: { 'Idempotency-Key': `lost-${order.id}` }, json: { provider: 'stripe' } });
    expect(retry.status, JSON.stringify(retry.body)).toBe(201);
    expect(retry.body.data.id).toBe(pending!.id);
    expect(retry.body.data.clientSecret).toMatch(/^pi_/);
    const creations = (await stripeRequests({ key: pending!.id })).filter((r) => r.path === '/v1/payment_intents');
    expect(creations.length).toBeGreaterThanOrEqual(3);
    expect(new Set(creations.map((r) => r.idempotencyKey))).toEqual(new Set([pending!.id]));
    expect(await paymentsOf(order.id)).toHaveLength(1);
  });

  it('counts JPY in whole yen at Stripe', async () => {
    const { key, product } = await placeTestOrder({ price: 10 });
    const currency = await api('/api/settings/currencies', { method: 'POST', key, json: { code: 'JPY', name: 'Japanese yen', symbol: '¥', minorUnits: 0, exchangeRate: 150 } });
    expect([201, 409]).toContain(currency.status);
    const { user, token } = await insertUser();
    // 3 x 10 USD at 150 yen to the dollar: 4,500 yen, a zero-decimal currency at Stripe and here.
    const { order } = await placeOrder(db(), {
      customerId: user.id,
      email: user.email,
      currency: 'JPY',
      lines: [{ variantId: product.variants[0].id, quantity: 3 }],
      actor: 'system',
    });
    expect(order).toMatchObject({ currency: 'JPY', minorUnits: 0, total: 4500 });
    const res = await api(`/api/orders/${order.id}/payments`, { method: 'POST', key: token, json: { provider: 'stripe' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ amount: 4500, currency: 'JPY' });
    const [created] = await stripeRequests({ key: res.body.data.id });
    expect(created!.params).toMatchObject({ amount: '4500', currency: 'jpy' });
  });

  it('refunds through Stripe keyed by our refund id; a retry after a lost answer makes exactly one refund', async () => {
    const { order, payment, key } = await startStripePayment();
    await deliver(await signedEvent('payment_intent.succeeded', await confirmIntent(payment.providerReference)));
    await injectFault('POST /v1/refunds', 'lose-answer', 2);
    const headers = { 'Idempotency-Key': `refund-${payment.id}` };
    const lost = await api(`/api/payments/${payment.id}/refunds`, { method: 'POST', key, headers, json: { amount: 10 } });
    expectError(lost, 502, 'PROVIDER_ERROR');
    const [pending] = await refundsOf(payment.id);
    expect(pending).toMatchObject({ status: 'pending', amount: 1000 });
    // While it is pending, it counts: no more than is left can be asked for.
    expectError(await api(`/api/payments/${payment.id}/refunds`, { method: 'POST', key, json: { amount: 20 } }), 409, 'CONFLICT');

    const retry = await api(`/api/payments/${payment.id}/refunds`, { method: 'POST', key, headers, json: { amount: 10 } });
    expect(retry.status, JSON.stringify(retry.body)).toBe(201);
    expect(retry.body.data).toMatchObject({ id: pending!.id, status: 'completed', amount: 10 });
    expect(retry.body.data.providerReference).toMatch(/^re_/);
    expect(await stripeRefunds(payment.providerReference)).toHaveLength(1);
    const creations = (await stripeRequests({ key: pending!.id })).filter((r) => r.path === '/v1/refunds' && r.method === 'POST');
    expect(creations.every((r) => r.idempotencyKey === pending!.id)).toBe(true);
    expect(await orderRow(order.id)).toMatchObject({ amountRefunded: 1000 });
    expect((await paymentsOf(order.id))[0]).toMatchObject({ status: 'partially_refunded', amountRefunded: 1000 });
    expect(await eventsOf('payment.refunded', order.id)).toHaveLength(1);
  });

  it('records a refund made in the Stripe dashboard from charge.refunded, once', async () => {
    const { order, payment } = await startStripePayment();
    const intent = await confirmIntent(payment.providerReference);
    await deliver(await signedEvent('payment_intent.succeeded', intent));
    await dashboardRefund(payment.providerReference, 2500);
    const charge = { id: 'ch_test', object: 'charge', payment_intent: payment.providerReference, amount_refunded: 2500, refunded: true };
    expect((await deliver(await signedEvent('charge.refunded', charge))).status).toBe(200);
    expect((await deliver(await signedEvent('charge.refunded', charge))).status).toBe(200);
    const [refund, ...more] = await refundsOf(payment.id);
    expect(more).toHaveLength(0);
    expect(refund).toMatchObject({ status: 'completed', amount: 2500, reason: 'Refunded at Stripe' });
    expect(await orderRow(order.id)).toMatchObject({ status: 'refunded', amountRefunded: 2500 });
  });

  it('records a dispute on the payment and emits payment.disputed', async () => {
    const { order, payment } = await startStripePayment();
    await deliver(await signedEvent('payment_intent.succeeded', await confirmIntent(payment.providerReference)));
    const dispute = { id: 'dp_test', object: 'dispute', amount: 2500, currency: 'usd', payment_intent: payment.providerReference, reason: 'fraudulent', status: 'needs_response' };
    expect((await deliver(await signedEvent('charge.dispute.created', dispute))).status).toBe(200);
    const read = await api(`/api/payments/${payment.id}`, { key: (await placeTestOrder()).key });
    expect(read.body.data.disputeStatus).toBe('needs_response');
    expect((await eventsOf('payment.disputed', order.id))[0]!.data).toMatchObject({ paymentId: payment.id, amount: 25, reason: 'fraudulent' });
  });

  it('cancels the PaymentIntent of an order left unpaid, and expires the order', async () => {
    const { order, payment } = await startStripePayment();
    const later = new Date(Date.parse(order.createdAt) + 61 * 60_000);
    const { expireUnpaidOrders } = await import('../../src/modules/payments/order-expiry');
    expect(await expireUnpaidOrders(env, later)).toBeGreaterThanOrEqual(1);
    expect(await orderRow(order.id)).toMatchObject({ status: 'cancelled' });
    expect((await paymentsOf(order.id))[0]).toMatchObject({ status: 'failed' });
    expect((await stripeRequests({ intent: payment.providerReference })).some((r) => r.path.endsWith('/cancel'))).toBe(true);
  });

  it('does not expire an order whose PaymentIntent succeeded behind a lost webhook: it records the payment instead', async () => {
    const { order, payment } = await startStripePayment();
    await confirmIntent(payment.providerReference);
    const later = new Date(Date.parse(order.createdAt) + 61 * 60_000);
    const { expireUnpaidOrders } = await import('../../src/modules/payments/order-expiry');
    await expireUnpaidOrders(env, later);
    expect(await orderRow(order.id)).toMatchObject({ status: 'processing', amountPaid: 2500 });
    expect((await paymentsOf(order.id))[0]).toMatchObject({ status: 'completed' });
  });

  it("lets a customer start a card payment of its own order only: another's is 404, manual is 403, anonymous 401", async () => {
    const { order } = await startStripePayment();
    const stranger = await insertUser();
    expectError(await api(`/api/orders/${order.id}/payments`, { method: 'POST', key: stranger.token, json: { provider: 'stripe' } }), 404, 'NOT_FOUND');
    expectError(await api(`/api/orders/${order.id}/payments`, { method: 'POST', key: stranger.token, json: { provider: 'manual' } }), 403, 'AUTHORIZATION_ERROR');
    expectError(await api(`/api/orders/${order.id}/payments`, { method: 'POST', json: { provider: 'stripe' } }), 401, 'AUTHENTICATION_ERROR');
    expect(await paymentsOf(order.id)).toHaveLength(1);
  });

  it('is a clear 422 when Stripe is not set up, and its webhook is 404', async () => {
    const { token, order } = await (async () => {
      const { user, token } = await insertUser();
      return { token, ...(await placeTestOrder({ customer: user.id })) };
    })();
    const bare = { ...env, STRIPE_SECRET_KEY: undefined, STRIPE_WEBHOOK_SECRET: undefined };
    const { default: worker } = await import('../../src/index');
    const res = await worker.fetch!(
      new Request(`http://store.test/api/orders/${order.id}/payments`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ provider: 'stripe' }),
      }),
      bare as never,
      { waitUntil() {}, passThroughOnException() {}, props: {} } as never,
    );
    expect(res.status).toBe(422);
    const body = (await res.json()) as any;
    expect(body.error.details).toEqual([
      { field: 'provider', code: 'invalid_value', message: 'provider: the stripe provider is not set up: STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are not set' },
    ]);
    expect(await paymentsOf(order.id)).toHaveLength(0);
    const signed = await signedEvent('payment_intent.succeeded', { id: 'pi_x', object: 'payment_intent', metadata: {} });
    const hook = await worker.fetch!(
      new Request('http://store.test/api/payments/stripe/webhook', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signed.header },
        body: signed.payload,
      }),
      bare as never,
      { waitUntil() {}, passThroughOnException() {}, props: {} } as never,
    );
    expect(hook.status).toBe(404);
  });
});

describe('never lost: manual payments and refunds', () => {
  it('a payment whose completion D1 refused is resumed by a retry with the same Idempotency-Key: one payment, paid once', async () => {
    const { order, key } = await placeTestOrder({ price: 8 });
    const restore = await failCompletionOf(order.id);
    const headers = { 'Idempotency-Key': `manual-${order.id}` };
    const failed = await api(`/api/orders/${order.id}/payments`, { method: 'POST', key, headers, json: { provider: 'manual' } });
    expect(failed.status).toBe(500);
    expect((await paymentsOf(order.id))[0]).toMatchObject({ status: 'pending' });
    // Without the fix this was 409 "nothing is owed": the pending row held the whole amount.
    await restore();
    const retried = await api(`/api/orders/${order.id}/payments`, { method: 'POST', key, headers, json: { provider: 'manual' } });
    expect(retried.status, JSON.stringify(retried.body)).toBe(201);
    expect(retried.body.data.status).toBe('completed');
    expect(await paymentsOf(order.id)).toHaveLength(1);
    expect(await orderRow(order.id)).toMatchObject({ status: 'processing', amountPaid: 800 });
    expect(await eventsOf('payment.completed', order.id)).toHaveLength(1);
  });

  it('a manual payment left pending without a retry is settled by reconciliation', async () => {
    const { order, key } = await placeTestOrder({ price: 6 });
    const restore = await failCompletionOf(order.id);
    expect((await api(`/api/orders/${order.id}/payments`, { method: 'POST', key, json: { provider: 'manual' } })).status).toBe(500);
    await restore();
    await reconcileLater();
    expect((await paymentsOf(order.id))[0]).toMatchObject({ status: 'completed' });
    expect(await orderRow(order.id)).toMatchObject({ amountPaid: 600 });
  });

  it('a refund whose record D1 refused is settled once by reconciliation', async () => {
    const { order, key } = await placeTestOrder({ price: 7 });
    const paid = await api(`/api/orders/${order.id}/payments`, { method: 'POST', key, json: { provider: 'manual' } });
    const paymentId = paid.body.data.id as string;
    const name = `fail_refund_${paymentId}`;
    await env.DB.exec(
      `CREATE TRIGGER ${name} BEFORE UPDATE OF status ON refunds WHEN NEW.status = 'completed' AND NEW.payment_id = '${paymentId}' BEGIN SELECT RAISE(ABORT, 'injected D1 failure'); END;`,
    );
    expect((await api(`/api/payments/${paymentId}/refunds`, { method: 'POST', key, json: {} })).status).toBe(500);
    await env.DB.exec(`DROP TRIGGER ${name};`);
    expect((await refundsOf(paymentId))[0]).toMatchObject({ status: 'pending' });
    expect(await orderRow(order.id)).toMatchObject({ amountRefunded: 0 });
    await reconcileLater();
    await reconcileLater();
    const all = await refundsOf(paymentId);
    expect(all).toHaveLength(1);
    expect(all[0]).toMatchObject({ status: 'completed', amount: 700 });
    expect(await orderRow(order.id)).toMatchObject({ status: 'refunded', amountRefunded: 700 });
    const [{ n }] = (await db()
      .select({ n: sql<number>`count(*)` })
      .from(events)
      .where(and(eq(events.type, 'payment.refunded'), sql`json_extract(${events.data}, '$.paymentId') = ${paymentId}`))) as [{ n: number }];
    expect(n).toBe(1);
  });
});
