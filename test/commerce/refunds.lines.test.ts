import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { events, orderLines, refundLines, refunds, storeCreditBalances, taxRates } from '../../src/db/schema';
import { recordRefund } from '../../src/modules/ledger/settle';
import { newId } from '../../src/lib/ids';
import { api, createProduct, db, expectError, insertUser, uid } from '../helpers';
import { clearFaults, confirmIntent, deliver, injectFault, signedEvent } from '../payments/stripe-fake';
import { placeTestOrder } from './order-fixtures';

// Refunds by line (docs/refunds.md): what was paid for the units, discount and tax prorated as at checkout.

const refund = (key: string, paymentId: string, json: Record<string, unknown>) => api(`/api/payments/${paymentId}/refunds`, { method: 'POST', key, json });
const lineRow = async (id: string) => (await db().select().from(orderLines).where(eq(orderLines.id, id)))[0]!;
const firstLineOf = async (orderId: string) => (await db().select().from(orderLines).where(eq(orderLines.orderId, orderId)))[0]!;

/** 3 × 9.99 with a 10% coupon, 19% tax added on top and 4.95 shipping (taxed too), paid in full. */
async function couponTaxOrder() {
  const placed = await placeTestOrder();
  const key = placed.key;
  const region = `R${uid().slice(0, 2).toUpperCase()}`;
  await db()
    .insert(taxRates)
    .values({ id: newId('tax'), name: 'Refund test tax', country: 'US', region, rate: '19', shippingTaxable: true });
  expect((await api('/api/settings', { method: 'PATCH', key, json: { shippingFlatRate: 4.95, freeShippingThreshold: null } })).status).toBe(200);
  onTestFinished(async () => void (await api('/api/settings', { method: 'PATCH', key, json: { shippingFlatRate: 0 } })));
  const code = `RL${uid().slice(0, 6).toUpperCase()}`;
  expect((await api('/api/coupons', { method: 'POST', key, json: { code, type: 'percentage', value: 10 } })).status).toBe(201);
  const product = await createProduct(key, { price: 9.99, stock: 100 });
  const address = { firstName: 'Ada', line1: '1 Main St', city: 'Springfield', region, postalCode: '12345', country: 'US' };
  const res = await api('/api/orders', {
    method: 'POST',
    key,
    json: { email: `lines-${uid()}@example.test`, lines: [{ variantId: product.variants[0].id, quantity: 3 }], couponCode: code, shippingAddress: address },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const order = res.body.data;
  const paid = await api(`/api/orders/${order.id}/payments`, { method: 'POST', key, json: { provider: 'manual' } });
  expect(paid.status).toBe(201);
  return { key, order, line: order.lines[0], payment: paid.body.data };
}

afterEach(() => clearFaults());

describe('refunds by line', () => {
  it('gives back what was paid for each unit, to the cent: a 10% coupon and 19% tax prorated, the last unit taking what is left', async () => {
    const { key, order, line, payment } = await couponTaxOrder();
    // 29.97 - 3.00 (10%) = 26.97, + 5.12 tax (19%) = 32.09 for the line; shipping 4.95 + 0.94 tax.
    expect(line).toMatchObject({ quantity: 3, subtotal: 29.97, discount: 3, taxAmount: 5.12, total: 32.09 });
    expect(order).toMatchObject({ shippingTotal: 4.95, total: 37.98 });

    const first = await refund(key, payment.id, { lines: [{ orderLineId: line.id, quantity: 1 }] });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.data).toMatchObject({ amount: 10.7, destination: 'payment', shippingAmount: 0 }); // 32.09 / 3 = 10.6967
    const second = await refund(key, payment.id, { lines: [{ orderLineId: line.id, quantity: 1 }], shipping: true });
    expect(second.body.data).toMatchObject({ amount: 16.59, shippingAmount: 5.89 }); // 10.70 + 4.95 + 0.94
    const last = await refund(key, payment.id, { lines: [{ orderLineId: line.id, quantity: 1 }] });
    expect(last.body.data.amount).toBe(10.69); // 32.09 - 21.40
    // The three refunds' line amounts, as stored in minor units, add up to the line's total exactly.
    const stored = await db().select().from(refundLines).where(eq(refundLines.orderLineId, line.id));
    expect(stored.map((l) => l.amount).sort()).toEqual([1069, 1070, 1070]);
    expect(stored.reduce((sum, l) => sum + l.amount, 0)).toBe(3209);

    expect(await lineRow(line.id)).toMatchObject({ quantityRefunded: 3 });
    const shown = await api(`/api/orders/${order.id}`, { key });
    expect(shown.body.data).toMatchObject({ status: 'refunded', amountRefunded: 37.98 });
    expect(shown.body.data.lines[0].quantityRefunded).toBe(3);
    const written = await db().select().from(refundLines).where(eq(refundLines.orderLineId, line.id));
    expect(written.map((r) => r.amount).sort()).toEqual([1069, 1070, 1070]);
    const refunded = (await db().select().from(events).where(eq(events.type, 'payment.refunded'))).find((e) => e.data.refundId === last.body.data.id);
    expect(refunded?.data).toMatchObject({ destination: 'payment', shippingAmount: 0, lines: [{ orderLineId: line.id, quantity: 1, amount: 10.69 }] });
    // `refund.created` announced it when it was made, with the same lines, still pending at the provider.
    const made = (await db().select().from(events).where(eq(events.type, 'refund.created'))).find((e) => e.data.refundId === last.body.data.id);
    expect(made?.data).toMatchObject({ status: 'pending', amount: 10.69, lines: [{ orderLineId: line.id, quantity: 1, amount: 10.69 }] });

    expectError(await refund(key, payment.id, { lines: [{ orderLineId: line.id, quantity: 1 }] }), 409, 'CONFLICT');
  });

  it('refuses more units than bought, lines of other orders and shipping twice; takes a staff override of the amount', async () => {
    const { key, line, payment } = await couponTaxOrder();
    const over = await refund(key, payment.id, { lines: [{ orderLineId: line.id, quantity: 4 }] });
    expectError(over, 409, 'CONFLICT');
    expect(over.body.error.details).toMatchObject([{ field: 'lines.0.quantity' }]);
    const stranger = await placeTestOrder();
    const foreign = await refund(key, payment.id, { lines: [{ orderLineId: (await firstLineOf(stranger.order.id)).id, quantity: 1 }] });
    expectError(foreign, 422, 'VALIDATION_ERROR');
    expect(foreign.body.error.details).toMatchObject([{ field: 'lines.0.orderLineId' }]);

    const overridden = await refund(key, payment.id, { lines: [{ orderLineId: line.id, quantity: 2 }], amount: 15, reason: 'kept one, partial goodwill' });
    expect(overridden.body.data.amount).toBe(15);
    expect(await lineRow(line.id)).toMatchObject({ quantityRefunded: 2 });
    expect((await refund(key, payment.id, { shipping: 2 })).body.data).toMatchObject({ amount: 2, shippingAmount: 2 });
    expectError(await refund(key, payment.id, { shipping: 3.9 }), 409, 'CONFLICT');
    expect((await refund(key, payment.id, { shipping: true })).body.data.amount).toBe(3.89);
  });

  it('sends the money to store credit instead, still counted against the payment; a guest order cannot', async () => {
    const { user } = await insertUser();
    const placed = await placeTestOrder({ customer: user.id, price: 10, quantity: 2 });
    const paid = await api(`/api/orders/${placed.order.id}/payments`, { method: 'POST', key: placed.key, json: { provider: 'manual' } });
    const line = await firstLineOf(placed.order.id);
    const res = await refund(placed.key, paid.body.data.id, { lines: [{ orderLineId: line.id, quantity: 1 }], destination: 'store_credit' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ amount: 10, destination: 'store_credit', status: 'completed' });
    expect((await db().select().from(storeCreditBalances).where(eq(storeCreditBalances.customerId, user.id)))[0]?.balance).toBe(1000);
    const credit = await api(`/api/customers/${user.id}/credit`, { key: placed.key });
    expect(credit.body.data[0]).toMatchObject({ reason: 'refund', amount: 10, refundId: res.body.data.id, orderId: placed.order.id });
    expect((await api(`/api/payments/${paid.body.data.id}`, { key: placed.key })).body.data).toMatchObject({ amountRefunded: 10, status: 'partially_refunded' });

    const guest = await placeTestOrder();
    const guestPaid = await api(`/api/orders/${guest.order.id}/payments`, { method: 'POST', key: guest.key, json: { provider: 'manual' } });
    expectError(await refund(guest.key, guestPaid.body.data.id, { destination: 'store_credit' }), 422, 'VALIDATION_ERROR');
  });

  it('holds the units of a refund in progress, and gives them back when it fails', async () => {
    const { user, token } = await insertUser();
    const placed = await placeTestOrder({ customer: user.id, price: 10, quantity: 2 });
    const started = await api(`/api/orders/${placed.order.id}/payments`, { method: 'POST', key: token, json: { provider: 'stripe' } });
    await deliver(await signedEvent('payment_intent.succeeded', await confirmIntent(started.body.data.providerReference)));
    const line = await firstLineOf(placed.order.id);
    await injectFault('POST /v1/refunds', 'fail', 2);
    const lost = await refund(placed.key, started.body.data.id, { lines: [{ orderLineId: line.id, quantity: 2 }] });
    expectError(lost, 502, 'PROVIDER_ERROR');
    expect(await lineRow(line.id)).toMatchObject({ quantityRefunded: 2 });
    expectError(await refund(placed.key, started.body.data.id, { lines: [{ orderLineId: line.id, quantity: 1 }] }), 409, 'CONFLICT');

    const [pending] = await db().select().from(refunds).where(eq(refunds.orderId, placed.order.id));
    expect(pending).toMatchObject({ status: 'pending', amount: 2000 });
    await recordRefund(db(), pending!, { status: 'failed', reference: null, failureReason: 'declined by the bank' }, { actor: 'system' });
    expect(await lineRow(line.id)).toMatchObject({ quantityRefunded: 0 });
    expect(await db().select().from(refundLines).where(eq(refundLines.refundId, pending!.id))).toEqual([]);
  });
});
