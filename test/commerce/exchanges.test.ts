import { and, eq, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { events, orderLines, orders, productVariants } from '../../src/db/schema';
import { adminKey, api, createProduct, db, expectError, insertUser, uid } from '../helpers';
import { ok } from './return-fixtures';

// Exchanges (docs/returns.md): a received return traded for other variants in one write; the new
// order is paid by what the returned units were worth, the customer pays only the difference, and a
// value beyond the new order's cost goes back to the payment or to store credit.

/** Boots in 42 (60.00) and 43 (65.00) and a cheaper pair (45.00); a customer bought two 42s, paid, delivered, and sent one back, received and restocked. */
async function receivedBoots() {
  const key = await adminKey();
  const { user, token } = await insertUser();
  const tag = uid();
  const boots = await createProduct(key, {
    name: `Boots ${tag}`,
    variants: [
      { sku: `BOOT-${tag}-42`, options: { size: '42' }, price: 60, stock: 10 },
      { sku: `BOOT-${tag}-43`, options: { size: '43' }, price: 65, stock: 5 },
    ],
  });
  const [size42, size43] = boots.variants.map((v: { id: string }) => v.id) as [string, string];
  const cheaper = (await createProduct(key, { name: `Sandals ${tag}`, price: 45, variants: [{ price: 45, stock: 5 }] })).variants[0].id as string;
  const order = await ok('/api/orders', { method: 'POST', key, json: { customerId: user.id, lines: [{ variantId: size42, quantity: 2 }] } });
  const [payment] = [await ok(`/api/orders/${order.id}/payments`, { method: 'POST', key, json: { provider: 'manual' } })];
  const shipment = await ok(`/api/orders/${order.id}/shipments`, { method: 'POST', key, json: { status: 'shipped' } });
  await ok(`/api/shipments/${shipment.id}`, { method: 'PATCH', key, json: { status: 'delivered' } });
  const line = order.lines[0] as { id: string };
  const ret = await ok(`/api/orders/${order.id}/returns`, { method: 'POST', key: token, json: { lines: [{ orderLineId: line.id, quantity: 1, reason: 'too_small' }] } });
  const move = (json: unknown) => ok(`/api/returns/${ret.id}`, { method: 'PATCH', key, json });
  return { key, customer: user, token, order, payment, line, ret, move, size42, size43, cheaper };
}

const receive = (b: Awaited<ReturnType<typeof receivedBoots>>) =>
  b.move({ status: 'approved' }).then(() => b.move({ status: 'received', restock: [{ returnLineId: b.ret.lines[0].id, quantity: 1 }] }));
const exchange = (b: { key: string; ret: { id: string } }, json: unknown, key = b.key) => api(`/api/returns/${b.ret.id}/exchange`, { method: 'POST', key, json });
const stockOf = async (variantId: string) => (await db().select({ stock: productVariants.stock }).from(productVariants).where(eq(productVariants.id, variantId)))[0]!.stock;
const eventsOf = async (type: string, needle: string) =>
  (
    await db()
      .select()
      .from(events)
      .where(and(eq(events.type, type), like(events.data, `%${needle}%`)))
  ).map((e) => e.data as Record<string, any>);

describe('exchanging a return', () => {
  it('trades one pair of 42s for a 43: the linked order is paid by the returned pair and the customer pays only the difference', async () => {
    const b = await receivedBoots();
    await receive(b);
    const res = await exchange(b, { lines: [{ variantId: b.size43, quantity: 1 }] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const made = res.body.data;
    expect(made).toMatchObject({ value: 60, credit: 60, amountDue: 5, balanceRefund: null, balanceRefundError: null });
    expect(made.return).toMatchObject({ id: b.ret.id, status: 'refunded', exchangeOrderId: made.order.id });
    expect(made.order).toMatchObject({ customerId: b.customer.id, status: 'pending', total: 65, shippingTotal: 0, amountPaid: 60, currency: b.order.currency });
    expect(made.order.lines).toMatchObject([{ variantId: b.size43, quantity: 1, unitPrice: 65, total: 65 }]);
    expect(res.headers.get('location')).toBe(`/api/orders/${made.order.id}`);

    // The first order gave the returned pair's value to the exchange: refunded by line, to destination `exchange`.
    const first = await ok(`/api/orders/${b.order.id}`, { key: b.key });
    expect(first).toMatchObject({ amountPaid: 120, amountRefunded: 60, status: 'completed' });
    expect(first.lines[0]).toMatchObject({ quantityReturned: 1, quantityRefunded: 1 });
    const [refund] = await ok(`/api/payments/${b.payment.id}/refunds`, { key: b.key });
    expect(refund).toMatchObject({ amount: 60, destination: 'exchange', returnId: b.ret.id, status: 'completed' });
    const [credit] = await ok(`/api/orders/${made.order.id}/payments`, { key: b.key });
    expect(credit).toMatchObject({ provider: 'exchange', amount: 60, status: 'completed', providerReference: refund.id });

    // The 43 was taken from stock; the returned 42 went back when received.
    expect(await stockOf(b.size43)).toBe(4);
    expect(await stockOf(b.size42)).toBe(9);

    // The customer pays the difference as for any order, and the order moves on.
    const paid = await ok(`/api/orders/${made.order.id}/payments`, { method: 'POST', key: b.key, json: { provider: 'manual' } });
    expect(paid).toMatchObject({ amount: 5, status: 'completed' });
    expect(await ok(`/api/orders/${made.order.id}`, { key: b.key })).toMatchObject({ status: 'processing', amountPaid: 65 });

    const [created] = await eventsOf('refund.created', refund.id);
    expect(created).toMatchObject({
      refundId: refund.id,
      destination: 'exchange',
      status: 'pending',
      returnId: b.ret.id,
      lines: [{ orderLineId: b.line.id, quantity: 1, amount: 60 }],
    });
    expect(await eventsOf('payment.refunded', refund.id)).toHaveLength(1);
    expect(await eventsOf('payment.completed', credit.id)).toMatchObject([{ provider: 'exchange', amount: 60 }]);
  });

  it('refunds a value beyond the new order to store credit, and the new order, paid in full, is processing at once', async () => {
    const b = await receivedBoots();
    await receive(b);
    const res = await exchange(b, { lines: [{ variantId: b.cheaper, quantity: 1 }], balanceTo: 'store_credit' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({
      value: 60,
      credit: 45,
      amountDue: 0,
      balanceRefund: { amount: 15, destination: 'store_credit', status: 'completed', returnId: b.ret.id },
    });
    expect(res.body.data.order).toMatchObject({ status: 'processing', total: 45, amountPaid: 45 });
    const wallet = await api(`/api/customers/${b.customer.id}/credit`, { key: b.key });
    expect(wallet.body.balances).toEqual([{ currency: b.order.currency, balance: 15 }]);
    // The first order gave back the pair's full 60.00: 45.00 to the exchange, 15.00 to credit.
    expect(await ok(`/api/orders/${b.order.id}`, { key: b.key })).toMatchObject({ amountRefunded: 60 });
  });

  it('writes one exchange when two race, and leaves nothing of the other', async () => {
    const b = await receivedBoots();
    await receive(b);
    const both = await Promise.all([1, 2].map(() => exchange(b, { lines: [{ variantId: b.size43, quantity: 1 }] })));
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    expectError(both.find((r) => r.status === 409)!, 409, 'CONFLICT');
    const theirs = await db().select({ id: orders.id }).from(orders).where(eq(orders.customerId, b.customer.id));
    expect(theirs).toHaveLength(2);
    expect(await stockOf(b.size43)).toBe(4);
    const [line] = await db().select().from(orderLines).where(eq(orderLines.id, b.line.id));
    expect(line!.quantityRefunded).toBe(1);
    expect(await ok(`/api/orders/${b.order.id}`, { key: b.key })).toMatchObject({ amountRefunded: 60 });
  });

  it('refuses a return not received, a customer, a guest balance to store credit, unknown variants, and paying with `exchange`', async () => {
    const b = await receivedBoots();
    const early = await exchange(b, { lines: [{ variantId: b.size43, quantity: 1 }] });
    expectError(early, 409, 'CONFLICT');
    expect(early.body.error.message).toMatch(/is requested: a return is exchanged once it is received/);
    await receive(b);
    expectError(await exchange(b, { lines: [{ variantId: b.size43, quantity: 1 }] }, b.token), 403, 'AUTHORIZATION_ERROR');
    const unknown = await exchange(b, { lines: [{ variantId: 'var_missing', quantity: 1 }] });
    expectError(unknown, 422, 'VALIDATION_ERROR');
    expect(unknown.body.error.details[0]).toMatchObject({ field: 'lines.0.variantId', code: 'not_found' });
    const short = await exchange(b, { lines: [{ variantId: b.size43, quantity: 6 }] });
    expectError(short, 409, 'CONFLICT');
    expectError(await exchange(b, { lines: [] }), 422, 'VALIDATION_ERROR');
    // Nothing of the refusals was written: the return still waits, the stock is whole.
    expect(await ok(`/api/returns/${b.ret.id}`, { key: b.key })).toMatchObject({ status: 'received', exchangeOrderId: null });
    expect(await stockOf(b.size43)).toBe(5);

    const guestOrder = await ok('/api/orders', { method: 'POST', key: b.key, json: { email: `guest-${uid()}@example.com`, lines: [{ variantId: b.size42, quantity: 1 }] } });
    await ok(`/api/orders/${guestOrder.id}/payments`, { method: 'POST', key: b.key, json: { provider: 'manual' } });
    const guestReturn = await ok(`/api/orders/${guestOrder.id}/returns`, {
      method: 'POST',
      key: b.key,
      json: { lines: [{ orderLineId: guestOrder.lines[0].id, quantity: 1, reason: 'other' }] },
    });
    await ok(`/api/returns/${guestReturn.id}`, { method: 'PATCH', key: b.key, json: { status: 'approved' } });
    await ok(`/api/returns/${guestReturn.id}`, { method: 'PATCH', key: b.key, json: { status: 'received' } });
    const guest = await exchange({ key: b.key, ret: guestReturn }, { lines: [{ variantId: b.cheaper, quantity: 1 }], balanceTo: 'store_credit' });
    expectError(guest, 422, 'VALIDATION_ERROR');
    expect(guest.body.error.details[0]).toMatchObject({ field: 'balanceTo' });

    const unpaid = await ok('/api/orders', { method: 'POST', key: b.key, json: { customerId: b.customer.id, lines: [{ variantId: b.size42, quantity: 1 }] } });
    const byExchange = await api(`/api/orders/${unpaid.id}/payments`, { method: 'POST', key: b.key, json: { provider: 'exchange' } });
    expectError(byExchange, 422, 'VALIDATION_ERROR');
    expect(byExchange.body.error.details[0]).toMatchObject({ field: 'provider' });
  });

  it('refuses, leaving nothing, when no payment has the value left to give: staff name one', async () => {
    const b = await receivedBoots();
    await receive(b);
    // The first order paid 120.00 in one payment; 80.00 of it refunded leaves 40.00, less than the pair's 60.00.
    await ok(`/api/payments/${b.payment.id}/refunds`, { method: 'POST', key: b.key, json: { amount: 80 } });
    const refused = await exchange(b, { lines: [{ variantId: b.size43, quantity: 1 }] });
    expectError(refused, 409, 'CONFLICT');
    expect(refused.body.error.message).toMatch(/has 40 USD left to refund, less than the 60/);
    expect(refused.body.error.details[0]).toMatchObject({ field: 'paymentId' });
    expect(await ok(`/api/returns/${b.ret.id}`, { key: b.key })).toMatchObject({ status: 'received', exchangeOrderId: null });
    expect(await stockOf(b.size43)).toBe(5);
  });
});
