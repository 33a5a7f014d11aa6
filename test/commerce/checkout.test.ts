import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { carts, orderLines, orders, productVariants, taxRates, promotions } from '../../src/db/schema';
import { couponPromotion } from './coupon-reference';
import { newId } from '../../src/lib/ids';
import { adminKey, api, createProduct, db, expectError, insertUser, uid } from '../helpers';

let key: string;
beforeAll(async () => {
  key = await adminKey();
  await db()
    .insert(taxRates)
    .values({ id: newId('tax'), name: 'DE VAT', country: 'DE', rate: '19' });
});

type Guest = { id: string; token: string };
const variant = async (price: number, stock: number) => (await createProduct(key, { price, stock })).variants[0].id as string;
const call = (cart: Guest, path: string, method = 'GET', json?: unknown) => api(`/api/carts/${cart.id}${path}`, { method, json, headers: { 'X-Cart-Token': cart.token } });
const guestCart = async (lines: [string, number][], json: Record<string, unknown> = {}): Promise<Guest> => {
  const { id, token } = (await api('/api/carts', { method: 'POST', json })).body.data;
  for (const [variantId, quantity] of lines) expect((await call({ id, token }, '/lines', 'POST', { variantId, quantity })).status).toBe(200);
  return { id, token };
};
const stockOf = async (id: string) => (await db().select().from(productVariants).where(eq(productVariants.id, id)))[0]!.stock;
const cartRow = async (id: string) => (await db().select().from(carts).where(eq(carts.id, id)))[0]!;

describe('POST /api/carts/{id}/checkout', () => {
  it('places the order at the cart total, takes the stock and converts the cart; a second checkout is 409', async () => {
    const shirt = await variant(19.99, 10);
    const mug = await variant(5.55, 10);
    const code = `CO${uid().toUpperCase()}`;
    await db()
      .insert(promotions)
      .values(couponPromotion({ id: newId('coup'), code, type: 'percentage', value: '10' }));
    const cart = await guestCart(
      [
        [shirt, 3],
        [mug, 1],
      ],
      { email: 'buyer@example.test' },
    );
    await call(cart, '/coupon', 'POST', { code });
    const priced = await call(cart, '', 'PATCH', { shippingAddress: { line1: '1 Hauptstr.', city: 'Berlin', country: 'DE' } });
    expect(priced.body.data.totals.total).toBe(70.16);

    const res = await call(cart, '/checkout', 'POST', { notes: 'Leave at the door' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const order = res.body.data;
    expect(res.headers.get('Location')).toBe(`/api/orders/${order.id}`);
    expect(order).toMatchObject({ status: 'pending', email: 'buyer@example.test', currency: 'USD', couponCode: code, total: 70.16, taxTotal: 11.2, discountTotal: 6.56 });
    expect(order.lines.map((l: any) => [l.variantId, l.quantity, l.total])).toEqual([
      [shirt, 3, 64.22],
      [mug, 1, 5.94],
    ]);
    const [stored] = await db().select().from(orders).where(eq(orders.id, order.id));
    expect(stored).toMatchObject({ cartId: cart.id, customerId: null, notes: 'Leave at the door', shippingAddress: { country: 'DE' } });
    expect([await stockOf(shirt), await stockOf(mug)]).toEqual([7, 9]);
    expect(await cartRow(cart.id)).toMatchObject({ status: 'converted', orderId: order.id });

    const read = await call(cart, '');
    expect(read.body.data).toMatchObject({ status: 'converted', orderId: order.id });
    const again = await call(cart, '/checkout', 'POST');
    expectError(again, 409, 'CONFLICT');
    expect(again.body.error.message).toMatch(/already been checked out/);
    expectError(await call(cart, '/lines', 'POST', { variantId: mug, quantity: 1 }), 409, 'CONFLICT');
    expectError(await call(cart, '', 'PATCH', { email: 'x@example.test' }), 409, 'CONFLICT');
    expectError(await call(cart, '/coupon', 'DELETE'), 409, 'CONFLICT');
    expect(await stockOf(shirt)).toBe(7);
  });

  it('turns 5 concurrent checkouts of one cart into exactly one order', async () => {
    const v = await variant(4, 100);
    const cart = await guestCart([[v, 2]], { email: 'race@example.test' });
    const results = await Promise.all(Array.from({ length: 5 }, () => call(cart, '/checkout', 'POST')));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
    for (const r of results.filter((r) => r.status === 409)) expectError(r, 409, 'CONFLICT');
    expect(await db().select().from(orders).where(eq(orders.cartId, cart.id))).toHaveLength(1);
    expect(await stockOf(v)).toBe(98);
  });

  it('replays a checkout repeated with the same Idempotency-Key instead of answering 409', async () => {
    const v = await variant(6, 10);
    const cart = await guestCart([[v, 1]], { email: 'retry@example.test' });
    const send = (json: unknown) => api(`/api/carts/${cart.id}/checkout`, { method: 'POST', json, headers: { 'X-Cart-Token': cart.token, 'Idempotency-Key': `co-${cart.id}` } });
    const first = await send({ notes: 'once' });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const repeat = await send({ notes: 'once' });
    expect(repeat.status).toBe(201);
    expect(repeat.headers.get('Idempotent-Replayed')).toBe('true');
    expect(repeat.body.data.id).toBe(first.body.data.id);
    expect(repeat.headers.get('Location')).toBe(`/api/orders/${first.body.data.id}`);
    expectError(await send({ notes: 'other' }), 409, 'CONFLICT');
    expect(await stockOf(v)).toBe(9);
  });

  it('leaves the cart active with its lines when the stock ran out, and writes nothing', async () => {
    const plenty = await variant(1, 10);
    const scarce = await variant(2, 5);
    const cart = await guestCart(
      [
        [plenty, 1],
        [scarce, 3],
      ],
      { email: 'late@example.test' },
    );
    await db().update(productVariants).set({ stock: 2 }).where(eq(productVariants.id, scarce));
    const res = await call(cart, '/checkout', 'POST');
    expectError(res, 409, 'CONFLICT');
    expect(res.body.error.message).toMatch(/3 asked, 2 left/);
    expect(res.body.error.details).toEqual([{ field: 'lines.1.quantity', code: 'too_big', message: 'lines.1.quantity: only 2 in stock' }]);
    expect(await cartRow(cart.id)).toMatchObject({ status: 'active', orderId: null });
    const read = await call(cart, '');
    expect(read.body.data.lines.map((l: any) => [l.variantId, l.quantity, l.inStock])).toEqual([
      [plenty, 1, true],
      [scarce, 3, false],
    ]);
    expect([await stockOf(plenty), await stockOf(scarce)]).toEqual([10, 2]);
    expect(await db().select().from(orders).where(eq(orders.cartId, cart.id))).toEqual([]);
    // Fixing the quantity lets the same cart check out.
    await call(cart, `/lines/${read.body.data.lines[1].id}`, 'PATCH', { quantity: 2 });
    expect((await call(cart, '/checkout', 'POST')).status).toBe(201);
  });

  it('needs an email for a guest and at least one line (422), and takes the email from the body', async () => {
    const v = await variant(3, 10);
    const empty = await guestCart([]);
    const both = await call(empty, '/checkout', 'POST');
    expectError(both, 422, 'VALIDATION_ERROR');
    expect(both.body.error.details.map((d: any) => d.field)).toEqual(['email', 'lines']);
    const cart = await guestCart([[v, 1]]);
    expectError(await call(cart, '/checkout', 'POST'), 422, 'VALIDATION_ERROR');
    const res = await call(cart, '/checkout', 'POST', { email: 'Late@Example.test', billingAddress: { line1: '2 B', city: 'C', country: 'US' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.email).toBe('late@example.test');
    const [stored] = await db().select().from(orders).where(eq(orders.id, res.body.data.id));
    expect(stored!.billingAddress).toMatchObject({ line1: '2 B' });
  });

  it("checks out a customer's cart as that customer, with its account email; others get 404", async () => {
    const v = await variant(7.5, 10);
    const { user, token } = await insertUser();
    const cart = (await api('/api/carts', { method: 'POST', key: token })).body.data;
    await api('/api/carts/me/lines', { method: 'POST', key: token, json: { variantId: v, quantity: 2 } });
    const stranger = await insertUser();
    expectError(await api(`/api/carts/${cart.id}/checkout`, { method: 'POST', key: stranger.token }), 404, 'NOT_FOUND');
    const res = await api('/api/carts/me/checkout', { method: 'POST', key: token });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ customerId: user.id, email: user.email, total: 15 });
    expect(await db().select().from(orderLines).where(eq(orderLines.orderId, res.body.data.id))).toHaveLength(1);
    // The converted cart is no longer the active one: the next POST /api/carts starts a new cart.
    const next = await api('/api/carts', { method: 'POST', key: token });
    expect(next.status).toBe(201);
    expect(next.body.data.id).not.toBe(cart.id);
  });
});
