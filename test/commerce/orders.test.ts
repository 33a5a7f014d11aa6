import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { currencies, events, orderLines, orders, productVariants, promotions } from '../../src/db/schema';
import { couponPromotion } from './coupon-reference';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service';
import { adminKey, api, createProduct, db, expectError, insertUser, insertVendorUser, uid } from '../helpers';

// Placing orders through POST /api/orders: who may, for whom, what comes back, and what is refused.

const post = (key: string, json: unknown) => api('/api/orders', { method: 'POST', key, json });
const stockOf = async (variantId: string) => (await db().select().from(productVariants).where(eq(productVariants.id, variantId)))[0]!.stock;
async function variant(key: string, body: Record<string, unknown> = {}) {
  return (await createProduct(key, { price: 10, stock: 10, ...body })).variants[0].id as string;
}

describe('POST /api/orders', () => {
  it("places a signed-in customer's order for itself, with its account email, priced in major units", async () => {
    const key = await adminKey();
    const variantId = await variant(key, { price: 19.99, sku: `SKU-${uid()}` });
    const { user, token } = await insertUser();
    const res = await post(token, { lines: [{ variantId, quantity: 2 }], notes: 'ring twice', shippingAddress: { line1: '1 Main St', city: 'Berlin', country: 'DE' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const order = res.body.data;
    expect(res.headers.get('Location')).toBe(`/api/orders/${order.id}`);
    expect(order).toMatchObject({
      customerId: user.id,
      email: user.email,
      status: 'pending',
      currency: 'USD',
      subtotal: 39.98,
      total: 39.98,
      amountPaid: 0,
      amountRefunded: 0,
      amountDue: 39.98,
      paymentStatus: 'unpaid',
      notes: 'ring twice',
      couponCode: null,
      cancelledAt: null,
      shippingAddress: { line1: '1 Main St', city: 'Berlin', country: 'DE' },
      billingAddress: { line1: '1 Main St', city: 'Berlin', country: 'DE' },
    });
    expect(order.lines).toEqual([
      expect.objectContaining({ variantId, quantity: 2, unitPrice: 19.99, subtotal: 39.98, discount: 0, tax: 0, total: 39.98, quantityShipped: 0, quantityDelivered: 0 }),
    ]);
    expect(order.lines[0]).not.toHaveProperty('vendorId');
    expect(order.history).toEqual([expect.objectContaining({ fromStatus: null, toStatus: 'pending', actor: `user:${user.id}` })]);
    expect(await stockOf(variantId)).toBe(8);
    const placed = (await db().select().from(events).where(eq(events.type, 'order.placed'))).filter((e) => e.data.orderId === order.id);
    expect(placed).toHaveLength(1);
  });

  it("lets staff order for an existing customer (email defaults to the customer's) or for a guest email", async () => {
    const key = await adminKey();
    const variantId = await variant(key);
    const { user } = await insertUser();
    const forCustomer = await post(key, { customerId: user.id, lines: [{ variantId, quantity: 1 }] });
    expect(forCustomer.status, JSON.stringify(forCustomer.body)).toBe(201);
    expect(forCustomer.body.data).toMatchObject({ customerId: user.id, email: user.email });
    const contact = await post(key, { customerId: user.id, email: 'Other.Contact@Example.test', lines: [{ variantId, quantity: 1 }] });
    expect(contact.body.data).toMatchObject({ customerId: user.id, email: 'other.contact@example.test' });
    const guest = await post(key, { email: `guest-${uid()}@example.test`, lines: [{ variantId, quantity: 1 }] });
    expect(guest.status).toBe(201);
    expect(guest.body.data.customerId).toBeNull();
  });

  it('refuses staff orders for nobody, for an unknown customer or for a user who is not a customer (422)', async () => {
    const key = await adminKey();
    const variantId = await variant(key);
    const nobody = await post(key, { lines: [{ variantId, quantity: 1 }] });
    expectError(nobody, 422, 'VALIDATION_ERROR');
    expect(nobody.body.error.details.map((d: any) => d.field).sort()).toEqual(['customerId', 'email']);
    const unknown = await post(key, { customerId: 'user_nope', lines: [{ variantId, quantity: 1 }] });
    expectError(unknown, 422, 'VALIDATION_ERROR');
    expect(unknown.body.error.details).toEqual([{ field: 'customerId', code: 'not_found', message: "customerId: no customer 'user_nope'" }]);
    const { user: admin } = await insertUser({ role: 'admin' });
    expectError(await post(key, { customerId: admin.id, lines: [{ variantId, quantity: 1 }] }), 422, 'VALIDATION_ERROR');
  });

  it("refuses a customer naming another customer or email, listing both fields and the lines' problems", async () => {
    const key = await adminKey();
    const variantId = await variant(key);
    const { token } = await insertUser();
    const { user: other } = await insertUser();
    const res = await post(token, {
      customerId: other.id,
      email: other.email,
      lines: [
        { variantId, quantity: 1 },
        { variantId: 'var_missing', quantity: 1 },
      ],
    });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(res.body.error.details.map((d: any) => d.field).sort()).toEqual(['customerId', 'email', 'lines.1.variantId']);
    expect(await stockOf(variantId)).toBe(10);
  });

  it('accepts a customer naming itself', async () => {
    const variantId = await variant(await adminKey());
    const { user, token } = await insertUser();
    const res = await post(token, { customerId: user.id, email: user.email.toUpperCase(), lines: [{ variantId, quantity: 1 }] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });

  it('is 401 without a credential, 403 for vendor users and for keys without orders:write', async () => {
    const variantId = await variant(await adminKey());
    const body = { email: 'x@example.test', lines: [{ variantId, quantity: 1 }] };
    expectError(await post(undefined as never, body), 401, 'AUTHENTICATION_ERROR');
    const { token: vendorToken } = await insertVendorUser();
    expectError(await post(vendorToken, body), 403, 'AUTHORIZATION_ERROR');
    const { key: readOnly } = await createApiKey(db(), { name: 'reader', permissions: ['orders:read'] });
    expectError(await post(readOnly, body), 403, 'AUTHORIZATION_ERROR');
    const { key: writer } = await createApiKey(db(), { name: 'writer', permissions: ['orders:write'] });
    expect((await post(writer, body)).status).toBe(201);
    expect(await stockOf(variantId)).toBe(9);
  });

  it('lists every invalid field of a malformed body (422)', async () => {
    const key = await adminKey();
    const res = await post(key, {
      lines: [
        { variantId: '', quantity: 0 },
        { variantId: 'var_x', quantity: 1001 },
        { variantId: 'var_y', quantity: 1.5, extra: true },
      ],
      currency: 'US',
      couponCode: 'no spaces!',
      shippingAddress: { country: 'XX' },
      billingAddress: { line1: '', city: 'Paris', country: 'FR' },
      notes: 'n'.repeat(2001),
      customerId: '',
      email: 'not-an-email',
      color: 'blue',
    });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(res.body.error.details.map((d: any) => d.field).sort()).toEqual(
      [
        'lines.0.variantId',
        'lines.0.quantity',
        'lines.1.quantity',
        'lines.2.quantity',
        'lines.2.extra',
        'currency',
        'couponCode',
        'shippingAddress.line1',
        'shippingAddress.city',
        'shippingAddress.country',
        'billingAddress.line1',
        'notes',
        'customerId',
        'email',
        'color',
      ].sort(),
    );
  });

  it('needs 1 to 50 lines', async () => {
    const key = await adminKey();
    const none = await post(key, { email: 'x@example.test', lines: [] });
    expectError(none, 422, 'VALIDATION_ERROR');
    expect(none.body.error.details.map((d: any) => d.field)).toEqual(['lines']);
    const many = await post(key, { email: 'x@example.test', lines: Array.from({ length: 51 }, (_, i) => ({ variantId: `var_${i}`, quantity: 1 })) });
    expectError(many, 422, 'VALIDATION_ERROR');
    expect(many.body.error.details.map((d: any) => d.field)).toEqual(['lines']);
  });

  it('sells exactly the stock to 20 concurrent requests for 5 units: five 201s, fifteen 409s, stock 0', async () => {
    const key = await adminKey();
    const variantId = await variant(key, { stock: 5 });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => post(key, { email: `rush-${i}-${uid()}@example.test`, lines: [{ variantId, quantity: 1 }] })));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 409)).toHaveLength(15);
    for (const r of results.filter((r) => r.status === 409)) expectError(r, 409, 'CONFLICT');
    expect(await stockOf(variantId)).toBe(0);
    expect(await db().select().from(orderLines).where(eq(orderLines.variantId, variantId))).toHaveLength(5);
  });

  it('leaves no partial order when the batch fails on its second line', async () => {
    const key = await adminKey();
    const plenty = await variant(key, { stock: 10 });
    const scarce = await variant(key, { stock: 1 });
    const code = `TEN${uid().toUpperCase()}`;
    await db()
      .insert(promotions)
      .values(couponPromotion({ id: `coup_${uid()}`, code, type: 'percentage', value: '10' }));
    const email = `short-${uid()}@example.test`;
    const res = await post(key, {
      email,
      couponCode: code,
      lines: [
        { variantId: plenty, quantity: 3 },
        { variantId: scarce, quantity: 2 },
      ],
    });
    expectError(res, 409, 'CONFLICT');
    expect(res.body.error.details).toEqual([{ field: 'lines.1.quantity', code: 'too_big', message: 'lines.1.quantity: only 1 in stock' }]);
    expect(await db().select().from(orders).where(eq(orders.email, email))).toHaveLength(0);
    expect(await stockOf(plenty)).toBe(10);
    expect(await stockOf(scarce)).toBe(1);
    expect((await db().select().from(promotions).where(eq(promotions.code, code)))[0]!.timesUsed).toBe(0);
  });

  it("shows amounts with the digits of the order's own currency", async () => {
    const key = await adminKey();
    const code = 'KWD';
    await db().insert(currencies).values({ code, name: 'Test dinar', symbol: 'KD', minorUnits: 3, exchangeRate: '0.5' }).onConflictDoNothing();
    const variantId = await variant(key, { price: 10.01 });
    const res = await post(key, { email: `kd-${uid()}@example.test`, currency: code.toLowerCase(), lines: [{ variantId, quantity: 1 }] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ currency: code, total: 5.005, amountDue: 5.005 });
    expect(res.body.data.lines[0].unitPrice).toBe(5.005);
  });
});
