import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { cartLines, carts, currencies, products, productVariants, taxRates, promotions } from '../../src/db/schema';
import { couponPromotion } from './coupon-reference';
import { bulkInserts } from '../../src/db/bound-parameters';
import { newId } from '../../src/lib/ids';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service';
import { adminKey, api, createProduct, db, expectError, insertUser, insertVendorUser, uid } from '../helpers';

let key: string;
beforeAll(async () => {
  key = await adminKey();
  await db().insert(currencies).values({ code: 'JPY', name: 'Yen', symbol: '¥', minorUnits: 0, exchangeRate: '150.5' });
  await db()
    .insert(taxRates)
    .values([
      { id: newId('tax'), name: 'DE VAT', country: 'DE', rate: '19' },
      { id: newId('tax'), name: 'FR VAT', country: 'FR', rate: '20' },
    ]);
});

type Guest = { id: string; token: string };
const newGuestCart = async (json: Record<string, unknown> = {}): Promise<Guest> => {
  const res = await api('/api/carts', { method: 'POST', json });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.data.id, token: res.body.data.token };
};
const asGuest = (cart: Guest, init: RequestInit & { json?: unknown } = {}) => ({ ...init, headers: { 'X-Cart-Token': cart.token } });
const call = (cart: Guest, path: string, method = 'GET', json?: unknown) => api(`/api/carts/${cart.id}${path}`, { method, json, headers: { 'X-Cart-Token': cart.token } });
const addLine = (cart: Guest, variantId: string, quantity: number) => call(cart, '/lines', 'POST', { variantId, quantity });
const newCoupon = async (values: Partial<Parameters<typeof couponPromotion>[0]> = {}) => {
  const row = { id: newId('coup'), code: `C${uid().toUpperCase()}`, type: 'percentage' as const, value: '10', ...values };
  await db().insert(promotions).values(couponPromotion(row));
  return row;
};
const variantOf = async (body: Record<string, unknown>) => (await createProduct(key, body)).variants[0].id as string;

describe('guest carts', () => {
  it('creates a guest cart with a token shown once, stored only as its hash', async () => {
    const res = await api('/api/carts', { method: 'POST' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.headers.get('Location')).toBe(`/api/carts/${res.body.data.id}`);
    expect(res.body.data).toMatchObject({ status: 'active', customerId: null, currency: 'USD', lines: [], couponCode: null, notices: [] });
    expect(res.body.data.totals).toEqual({ subtotal: 0, discountTotal: 0, shippingTotal: 0, shippingTax: 0, taxTotal: 0, total: 0, taxBreakdown: [] });
    expect(res.body.data.token).toMatch(/^ct_[0-9A-Za-z]{40}$/);
    const [row] = await db().select().from(carts).where(eq(carts.id, res.body.data.id));
    expect(row!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.tokenHash).not.toContain(res.body.data.token);
    const read = await api(`/api/carts/${res.body.data.id}`, asGuest(res.body.data));
    expect(read.status).toBe(200);
    expect(read.body.data.token).toBeUndefined();
  });

  it('prices the flow exactly: lines, a coupon rounded half-up per line, the tax of the shipping address', async () => {
    const shirt = await variantOf({ price: 19.99, stock: 10 });
    const mug = await variantOf({ price: 5.55, stock: 10 });
    const coupon = await newCoupon({ value: '10' });
    const cart = await newGuestCart({ email: 'Guest@Example.test' });
    expect((await addLine(cart, shirt, 2)).status).toBe(200);
    expect((await addLine(cart, shirt, 1)).body.data.lines).toHaveLength(1); // same variant: quantities add up
    const withMug = await addLine(cart, mug, 1);
    expect(withMug.body.data.lines.map((l: any) => [l.variantId, l.quantity])).toEqual([
      [shirt, 3],
      [mug, 1],
    ]);

    const discounted = await call(cart, '/coupon', 'POST', { code: coupon.code.toLowerCase() });
    expect(discounted.status, JSON.stringify(discounted.body)).toBe(200);
    expect(discounted.body.data.couponCode).toBe(coupon.code);
    // 10% of 59.97 is 5.997 -> 6.00 and of 5.55 is 0.555 -> 0.56: 6.56 in all, where 10% of the sum would round to 6.55.
    expect(discounted.body.data.totals).toEqual({ subtotal: 65.52, discountTotal: 6.56, shippingTotal: 0, shippingTax: 0, taxTotal: 0, total: 58.96, taxBreakdown: [] });

    const taxed = await call(cart, '', 'PATCH', { shippingAddress: { line1: '1 Hauptstr.', city: 'Berlin', country: 'DE' } });
    expect(taxed.status, JSON.stringify(taxed.body)).toBe(200);
    const { lines, totals, email, shippingAddress } = taxed.body.data;
    expect(email).toBe('guest@example.test');
    expect(shippingAddress).toMatchObject({ line1: '1 Hauptstr.', country: 'DE' });
    // 19% of 53.97 = 10.2543 -> 10.25; of 4.99 = 0.9481 -> 0.95.
    expect(lines.map((l: any) => [l.unitPrice, l.subtotal, l.discount, l.tax, l.total, l.inStock])).toEqual([
      [19.99, 59.97, 6, 10.25, 64.22, true],
      [5.55, 5.55, 0.56, 0.95, 5.94, true],
    ]);
    expect(totals).toEqual({
      subtotal: 65.52,
      discountTotal: 6.56,
      shippingTotal: 0,
      shippingTax: 0,
      taxTotal: 11.2,
      total: 70.16,
      taxBreakdown: [{ rate: 19, netAmount: 58.96, taxAmount: 11.2 }],
    });
    expect(lines.map((l: any) => [l.taxRate, l.taxAmount, l.taxClass])).toEqual([
      [19, 10.25, 'standard'],
      [19, 0.95, 'standard'],
    ]);
    expect(taxed.body.data.pricesIncludeTax).toBe(false);
    expect(lines[0]).toMatchObject({ productId: expect.any(String), name: expect.any(String), sku: null, options: {} });
  });

  it('prices a cart in a currency with no minor unit', async () => {
    const variant = await variantOf({ price: 19.99, stock: 10 });
    const cart = await newGuestCart({ currency: 'jpy' });
    const res = await addLine(cart, variant, 3);
    // 19.99 USD at 150.5 = 3008.495 -> 3008 JPY a unit.
    expect(res.body.data.currency).toBe('JPY');
    expect(res.body.data.lines[0]).toMatchObject({ unitPrice: 3008, subtotal: 9024 });
    const taxed = await call(cart, '', 'PATCH', { shippingAddress: { line1: '1 rue X', city: 'Paris', country: 'FR' } });
    expect(taxed.body.data.totals).toMatchObject({ subtotal: 9024, discountTotal: 0, shippingTotal: 0, taxTotal: 1805, total: 10829 });
    const back = await call(cart, '', 'PATCH', { currency: 'USD' });
    expect(back.body.data.totals).toMatchObject({ subtotal: 59.97, taxTotal: 11.99, total: 71.96 });
  });

  it('answers 404 for a missing, wrong, malformed or other cart token, and 401 for a bad credential', async () => {
    const cart = await newGuestCart();
    const other = await newGuestCart();
    expectError(await api(`/api/carts/${cart.id}`), 404, 'NOT_FOUND');
    expectError(await api(`/api/carts/${cart.id}`, { headers: { 'X-Cart-Token': other.token } }), 404, 'NOT_FOUND');
    expectError(await api(`/api/carts/${cart.id}`, { headers: { 'X-Cart-Token': 'nonsense' } }), 404, 'NOT_FOUND');
    expectError(await api(`/api/carts/${cart.id}/lines`, { method: 'POST', json: { variantId: 'var_x', quantity: 1 } }), 404, 'NOT_FOUND');
    expectError(await api('/api/carts/cart_unknown', asGuest(cart)), 404, 'NOT_FOUND');
    expectError(await api(`/api/carts/${cart.id}`, { ...asGuest(cart), key: 'sk_bad' }), 401, 'AUTHENTICATION_ERROR');
    const { token } = await insertUser();
    expectError(await api(`/api/carts/${cart.id}`, { key: token }), 404, 'NOT_FOUND');
  });

  it('refuses more than is in stock with 409 naming what is left, and products not for sale with 422', async () => {
    const variant = await variantOf({ price: 3, stock: 3 });
    const draft = await variantOf({ status: 'draft', stock: 5 });
    const cart = await newGuestCart();
    expect((await addLine(cart, variant, 2)).status).toBe(200);
    const over = await addLine(cart, variant, 2);
    expectError(over, 409, 'CONFLICT');
    expect(over.body.error.message).toMatch(/4 asked, 3 left/);
    expect(over.body.error.details).toEqual([{ field: 'quantity', code: 'too_big', message: 'quantity: only 3 in stock' }]);
    const lineId = (await call(cart, '')).body.data.lines[0].id;
    expectError(await call(cart, `/lines/${lineId}`, 'PATCH', { quantity: 4 }), 409, 'CONFLICT');
    expect((await call(cart, `/lines/${lineId}`, 'PATCH', { quantity: 3 })).body.data.lines[0].quantity).toBe(3);
    expectError(await addLine(cart, draft, 1), 422, 'VALIDATION_ERROR');
    expectError(await addLine(cart, 'var_missing', 1), 422, 'VALIDATION_ERROR');
    expectError(await addLine(cart, variant, 0), 422, 'VALIDATION_ERROR');
    expectError(await addLine(cart, variant, 1001), 422, 'VALIDATION_ERROR');
    // Stock that drops after the add shows as not in stock rather than failing the read.
    await db().update(productVariants).set({ stock: 1 }).where(eq(productVariants.id, variant));
    expect((await call(cart, '')).body.data.lines[0].inStock).toBe(false);
  });

  it('changes and removes lines, each answer the whole cart', async () => {
    const a = await variantOf({ price: 2, stock: 9 });
    const b = await variantOf({ price: 3, stock: 9 });
    const cart = await newGuestCart();
    await addLine(cart, a, 1);
    const both = await addLine(cart, b, 2);
    const [lineA, lineB] = both.body.data.lines;
    const zero = await call(cart, `/lines/${lineA.id}`, 'PATCH', { quantity: 0 });
    expect(zero.body.data.lines.map((l: any) => l.id)).toEqual([lineB.id]);
    const removed = await call(cart, `/lines/${lineB.id}`, 'DELETE');
    expect(removed.status).toBe(200);
    expect(removed.body.data).toMatchObject({ lines: [], totals: { total: 0 } });
    expectError(await call(cart, `/lines/${lineB.id}`, 'DELETE'), 404, 'NOT_FOUND');
  });

  it('holds a cart to 50 lines', async () => {
    // Rows straight into the tables: 51 products through the API take longer than the point needs.
    const made = Array.from({ length: 51 }, () => {
      const token = uid();
      return { product: { id: newId('prod'), name: `Bulk ${token}`, slug: `bulk-${token}`, price: 100, status: 'active' as const }, variant: { id: newId('var') } };
    });
    const database = db();
    await database.batch([
      ...bulkInserts(
        database,
        products,
        made.map((m) => m.product),
      ),
      ...bulkInserts(
        database,
        productVariants,
        made.map((m) => ({ id: m.variant.id, productId: m.product.id, price: 100, stock: 5 })),
      ),
    ] as never);
    const cart = await newGuestCart();
    const ts = new Date().toISOString();
    const lines = made
      .slice(0, 49)
      .map((m) => ({ id: newId('cline'), cartId: cart.id, productId: m.product.id, variantId: m.variant.id, quantity: 1, createdAt: ts, updatedAt: ts }));
    await database.batch(bulkInserts(database, cartLines, lines) as never);
    expect((await addLine(cart, made[49]!.variant.id, 1)).body.data.lines).toHaveLength(50);
    expectError(await addLine(cart, made[50]!.variant.id, 1), 409, 'CONFLICT');
    const grown = await addLine(cart, made[0]!.variant.id, 1); // an existing line still grows
    expect(grown.body.data.lines).toHaveLength(50);
    expect(grown.body.data.totals.subtotal).toBe(51);
  });

  it('validates addresses like customer addresses, and currencies against the enabled ones', async () => {
    const cart = await newGuestCart();
    const bad = await call(cart, '', 'PATCH', { shippingAddress: { line1: '', city: 'X', country: 'XX' }, currency: 'EUR' });
    expectError(bad, 422, 'VALIDATION_ERROR');
    expect(bad.body.error.details.map((d: any) => d.field).sort()).toEqual(['shippingAddress.country', 'shippingAddress.line1']);
    expectError(await call(cart, '', 'PATCH', { currency: 'EUR' }), 422, 'VALIDATION_ERROR');
    expectError(await api('/api/carts', { method: 'POST', json: { currency: 'EUR' } }), 422, 'VALIDATION_ERROR');
    const cleared = await call(cart, '', 'PATCH', { billingAddress: { line1: '1 A', city: 'B', country: 'US' } });
    expect(cleared.body.data.billingAddress).toMatchObject({ country: 'US' });
    expect((await call(cart, '', 'PATCH', { billingAddress: null })).body.data.billingAddress).toBeNull();
  });
});

describe('coupons on carts', () => {
  it('refuses unknown codes with 422 and unusable ones with 409 naming why, keeping neither', async () => {
    const variant = await variantOf({ price: 10, stock: 10 });
    const usedUp = await newCoupon({ usageLimit: 1, timesUsed: 1 });
    const tooSmall = await newCoupon({ minSubtotal: 5000 });
    const cart = await newGuestCart();
    await addLine(cart, variant, 1);
    const unknown = await call(cart, '/coupon', 'POST', { code: 'NOPE-NOPE' });
    expectError(unknown, 422, 'VALIDATION_ERROR');
    expect(unknown.body.error.details[0].field).toBe('code');
    const used = await call(cart, '/coupon', 'POST', { code: usedUp.code });
    expectError(used, 409, 'CONFLICT');
    expect(used.body.error.message).toMatch(/used up/);
    expect((await call(cart, '/coupon', 'POST', { code: tooSmall.code })).body.error.message).toMatch(/at least 50 USD/);
    expect((await call(cart, '')).body.data.couponCode).toBeNull();
  });

  it('shows a coupon that stopped being usable as removed, with a notice, instead of failing the read', async () => {
    const variant = await variantOf({ price: 10, stock: 10 });
    const coupon = await newCoupon({ value: '50' });
    const cart = await newGuestCart();
    await addLine(cart, variant, 2);
    expect((await call(cart, '/coupon', 'POST', { code: coupon.code })).body.data.totals.total).toBe(10);
    await db().update(promotions).set({ endsAt: '2000-01-01T00:00:00.000Z' }).where(eq(promotions.id, coupon.id));
    const read = await call(cart, '');
    expect(read.status).toBe(200);
    expect(read.body.data.couponCode).toBeNull();
    expect(read.body.data.totals.total).toBe(20);
    expect(read.body.data.notices).toEqual([{ code: 'coupon_removed', message: expect.stringMatching(/expired at 2000-01-01.*removed from the cart/) }]);
    const [row] = await db().select().from(carts).where(eq(carts.id, cart.id));
    expect(row!.couponId).toBeNull();
    expect((await call(cart, '')).body.data.notices).toEqual([]);
  });

  it('removes a coupon on request, and lines whose product went off sale with a notice', async () => {
    const keep = await variantOf({ price: 10, stock: 10 });
    const product = await createProduct(key, { price: 4, stock: 10 });
    const coupon = await newCoupon();
    const cart = await newGuestCart();
    await addLine(cart, keep, 1);
    await addLine(cart, product.variants[0].id, 1);
    await call(cart, '/coupon', 'POST', { code: coupon.code });
    const removed = await call(cart, '/coupon', 'DELETE');
    expect(removed.body.data).toMatchObject({ couponCode: null, totals: { total: 14 } });
    await api(`/api/products/${product.id}`, { method: 'PATCH', key, json: { status: 'archived' } });
    const read = await call(cart, '');
    expect(read.body.data.lines.map((l: any) => l.variantId)).toEqual([keep]);
    expect(read.body.data.notices).toEqual([{ code: 'line_removed', message: expect.stringMatching(/no longer for sale/) }]);
  });
});

describe('currencies the store stops selling in', () => {
  it('moves the cart to the default currency with a notice', async () => {
    await db().insert(currencies).values({ code: 'GBP', name: 'Pound', symbol: '£', minorUnits: 2, exchangeRate: '0.8' });
    const variant = await variantOf({ price: 10, stock: 5 });
    const cart = await newGuestCart({ currency: 'GBP' });
    expect((await addLine(cart, variant, 1)).body.data.totals.total).toBe(8);
    await db().update(currencies).set({ enabled: false }).where(eq(currencies.code, 'GBP'));
    const read = await call(cart, '');
    expect(read.body.data).toMatchObject({ currency: 'USD', totals: { total: 10 }, notices: [{ code: 'currency_changed', message: expect.stringMatching(/GBP/) }] });
    expect((await db().select().from(carts).where(eq(carts.id, cart.id)))[0]!.currency).toBe('USD');
  });
});

describe('customer carts and access', () => {
  it('gives a signed-in customer one active cart, reached with its JWT and as me', async () => {
    const { user, token } = await insertUser();
    const results = await Promise.all(Array.from({ length: 4 }, () => api('/api/carts', { method: 'POST', key: token })));
    const ids = new Set(results.map((r) => r.body.data.id));
    expect(ids.size).toBe(1);
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 201]);
    expect(results.every((r) => r.body.data.token === undefined && r.body.data.customerId === user.id)).toBe(true);
    const [id] = [...ids];
    expect((await api('/api/carts/me', { key: token })).body.data.id).toBe(id);
    expect((await api(`/api/carts/${id}`, { key: token })).status).toBe(200);
    const variant = await variantOf({ price: 1, stock: 5 });
    expect((await api('/api/carts/me/lines', { method: 'POST', key: token, json: { variantId: variant, quantity: 1 } })).status).toBe(200);
  });

  it('hides a customer cart from other customers and anonymous callers (404), shows it to staff, refuses vendors (403)', async () => {
    const { token } = await insertUser();
    const id = (await api('/api/carts', { method: 'POST', key: token })).body.data.id;
    const other = await insertUser();
    expectError(await api(`/api/carts/${id}`, { key: other.token }), 404, 'NOT_FOUND');
    expectError(await api(`/api/carts/${id}`), 404, 'NOT_FOUND');
    expectError(await api('/api/carts/me', { key: other.token }), 404, 'NOT_FOUND');
    expectError(await api('/api/carts/me'), 401, 'AUTHENTICATION_ERROR');
    expect((await api(`/api/carts/${id}`, { key })).status).toBe(200);
    const reader = (await createApiKey(db(), { name: 'reader', permissions: ['carts:read'] })).key;
    expect((await api(`/api/carts/${id}`, { key: reader })).status).toBe(200);
    expectError(await api(`/api/carts/${id}`, { method: 'PATCH', key: reader, json: { email: 'a@b.test' } }), 403, 'AUTHORIZATION_ERROR');
    const stranger = (await createApiKey(db(), { name: 'catalogue', permissions: ['products:read'] })).key;
    expectError(await api(`/api/carts/${id}`, { key: stranger }), 404, 'NOT_FOUND');
    const vendor = await insertVendorUser();
    expectError(await api(`/api/carts/${id}`, { key: vendor.token }), 403, 'AUTHORIZATION_ERROR');
    expectError(await api('/api/carts', { method: 'POST', key: vendor.token }), 403, 'AUTHORIZATION_ERROR');
  });

  it("lets staff create a customer's cart, and no one else", async () => {
    const { user, token } = await insertUser();
    const res = await api('/api/carts', { method: 'POST', key, json: { customerId: user.id } });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ customerId: user.id });
    expect(res.body.data.token).toBeUndefined();
    expect((await api('/api/carts/me', { key: token })).body.data.id).toBe(res.body.data.id);
    expect((await api('/api/carts', { method: 'POST', key, json: { customerId: user.id } })).status).toBe(200);
    expectError(await api('/api/carts', { method: 'POST', key, json: { customerId: 'user_nobody' } }), 422, 'VALIDATION_ERROR');
    const other = await insertUser();
    expectError(await api('/api/carts', { method: 'POST', key: other.token, json: { customerId: user.id } }), 403, 'AUTHORIZATION_ERROR');
    const guestByKey = await api('/api/carts', { method: 'POST', key });
    expect(guestByKey.status).toBe(201);
    expect(guestByKey.body.data.token).toMatch(/^ct_/);
  });
});
