import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { events } from '../../src/db/schema';
import type { Principal } from '../../src/lib/access';
import { createCustomer } from '../../src/modules/customers/customers.service';
import { getOrder } from '../../src/modules/orders/orders.service';
import { ALL_ORDERS } from '../../src/modules/orders/orders.access';
import { createRole } from '../../src/modules/roles/roles.service';
import { createUser } from '../../src/modules/users/users.service';
import { adminKey, api, createProduct, db, uid } from '../helpers';
import { csrfIn, get, post, signIn } from './panel-client';

const ROOT: Principal = { kind: 'user', id: 'test-root', role: 'admin', permissions: ['*'], vendorId: null };
const PASSWORD = 'correct horse battery';

async function staff(roleId: string) {
  const email = `${roleId.toLowerCase()}-${uid()}@example.com`;
  await createUser(db(), { email, password: PASSWORD, roleId, vendorId: null });
  return (await signIn(email, PASSWORD)).session;
}

async function withPermissions(permissions: string[]) {
  const role = await createRole(db(), ROOT, { name: `Role ${uid()}`, permissions });
  return staff(role.id);
}

const errorOf = (html: string, field: string) => new RegExp(`id="f-${field.replace(/[^\w-]/g, '-')}-error">([^<]*)<`).exec(html)?.[1];
const totalOf = (html: string, name: string) => new RegExp(`data-total="${name}">(?:<strong>)?([\\d.]+) `).exec(html)?.[1];

/** A product with one variant and some stock; returns the variant's id. */
async function variantWithStock(stock: number, price = 12.5) {
  const product = await createProduct(await adminKey(), { name: `Mug ${uid()}`, price, stock });
  return product.variants[0].id as string;
}

async function stockOf(variantId: string) {
  return (await db().query.productVariants.findFirst({ where: (v, { eq: is }) => is(v.id, variantId) }))!.stock;
}

/** The admin's session and a token for the new-order form. */
async function admin() {
  const session = await staff('admin');
  const page = await get('/admin/orders/new', session);
  expect(page.res.status).toBe(200);
  return { session, token: csrfIn(page.html), page };
}

describe('admin: new order', () => {
  it('places an order for a customer: add line keeps the draft, review shows the server totals, place redirects to the order', async () => {
    const { session, token, page } = await admin();
    const first = await variantWithStock(10, 12.5);
    const second = await variantWithStock(4, 3);
    const customer = await createCustomer(db(), { email: `buyer-${uid()}@example.com`, name: 'Buyer' });
    const found = await get(`/admin/orders/new?customer_q=${encodeURIComponent(customer.email)}`, session);
    expect(found.html).toContain(`<option value="${customer.id}">${customer.email} (Buyer)</option>`);
    expect(found.html.match(/<option value="user_/g)).toHaveLength(1);
    const list = await get('/admin/orders', session);
    expect(list.html).toContain('href="/admin/orders/new"');
    expect((await get('/admin/orders/new', session)).html).toContain(`value="${first}"`);
    expect(page.html).toContain('Review');

    // "Add line" re-renders with the draft and one more row.
    const draft = { _csrf: token, customerId: customer.id, email: '', currency: 'USD', couponCode: '', notes: 'Phone order', 'lines.0.variantId': first, 'lines.0.quantity': '2' };
    const added = await post('/admin/orders/new', { ...draft, step: 'add' }, session);
    expect(added.res.status).toBe(200);
    expect(added.html).toContain('name="lines.1.variantId"');
    expect(added.html).toMatch(new RegExp(`<option value="${first}" selected="">`));
    expect(added.html).toContain('Phone order');

    const lines = { ...draft, 'lines.1.variantId': second, 'lines.1.quantity': '1', 'lines.2.variantId': '', 'lines.2.quantity': '1' };
    const review = await post('/admin/orders/new', { ...lines, step: 'review' }, session);
    expect(review.res.status).toBe(200);
    expect(review.html).toContain('id="review-card"');
    expect(review.html).toContain('Place order');
    expect(review.html).toContain(customer.email);

    // The review form carries the draft; placing it as the browser would.
    const placed = await post('/admin/orders/new', { ...lines, step: 'place' }, session);
    expect(placed.res.status).toBe(303);
    // The panel goes to the order by its number (#1001), as it shows it.
    const number = placed.res.headers.get('Location')!.replace('/admin/orders/', '');
    expect(number).toMatch(/^\d+$/);
    const order = await getOrder(db(), number, ALL_ORDERS);
    const id = order.id;
    expect(order.customerId).toBe(customer.id);
    expect(order.email).toBe(customer.email.toLowerCase());
    expect(order.notes).toBe('Phone order');
    expect(Object.fromEntries(order.lines.map((l) => [l.variantId, l.quantity]))).toEqual({ [first]: 2, [second]: 1 });
    for (const name of ['subtotal', 'discountTotal', 'shippingTotal', 'taxTotal', 'total'] as const) {
      expect(Number(totalOf(review.html, name)), name).toBe(order[name]);
    }
    expect(await stockOf(first)).toBe(8);
    expect(await stockOf(second)).toBe(3);
    const emitted = await db()
      .select()
      .from(events)
      .where(and(eq(events.type, 'order.placed'), sql`json_extract(${events.data}, '$.orderId') = ${id}`));
    expect(emitted).toHaveLength(1);
    const detail = await get(`/admin/orders/${number}`, session);
    expect(detail.html).toContain(`<h1>Order #${number}</h1>`);
    expect(detail.html).toContain(id);
  });

  it('places a guest order with a shipping address; the API sees it', async () => {
    const { session, token } = await admin();
    const variant = await variantWithStock(5);
    const email = `guest-${uid()}@example.com`;
    const form = {
      _csrf: token,
      customerId: '',
      email,
      currency: 'USD',
      'lines.0.variantId': variant,
      'lines.0.quantity': '1',
      'shippingAddress.line1': '1 Main St',
      'shippingAddress.city': 'Springfield',
      'shippingAddress.country': 'us',
    };
    const review = await post('/admin/orders/new', { ...form, step: 'review' }, session);
    expect(review.res.status).toBe(200);
    expect(review.html).toContain(`${email} (guest)`);
    const placed = await post('/admin/orders/new', { ...form, step: 'place' }, session);
    expect(placed.res.status).toBe(303);
    const id = placed.res.headers.get('Location')!.split('/').pop()!;
    const res = await api(`/api/orders/${id}`, { key: await adminKey() });
    expect(res.status).toBe(200);
    expect(res.body.data.customerId).toBeNull();
    expect(res.body.data.email).toBe(email);
    expect(res.body.data.shippingAddress).toMatchObject({ line1: '1 Main St', city: 'Springfield', country: 'US' });
    expect(Number(totalOf(review.html, 'total'))).toBe(res.body.data.total);
  });

  it('refuses stock it does not have, with the message next to the quantity, at review and at placing', async () => {
    const { session, token } = await admin();
    const variant = await variantWithStock(2);
    const form = { _csrf: token, email: `short-${uid()}@example.com`, 'lines.0.variantId': variant, 'lines.0.quantity': '3' };
    const review = await post('/admin/orders/new', { ...form, step: 'review' }, session);
    expect(review.res.status).toBe(409);
    expect(review.html).toContain('Not enough stock');
    expect(errorOf(review.html, 'lines.0.quantity')).toBe('only 2 in stock');
    expect(review.html).not.toContain('id="review-card"');
    const placed = await post('/admin/orders/new', { ...form, step: 'place' }, session);
    expect(placed.res.status).toBe(409);
    expect(errorOf(placed.html, 'lines.0.quantity')).toBe('only 2 in stock');
    expect(await stockOf(variant)).toBe(2);
  });

  it('shows the API errors next to their fields: unknown coupon, bad address, no orderer, no lines', async () => {
    const { session, token } = await admin();
    const variant = await variantWithStock(3);
    const bad = await post(
      '/admin/orders/new',
      { _csrf: token, step: 'review', email: `c-${uid()}@example.com`, couponCode: 'NOPE-NOT-HERE', 'lines.0.variantId': variant, 'lines.0.quantity': '1' },
      session,
    );
    expect(bad.res.status).toBe(422);
    expect(errorOf(bad.html, 'couponCode')).toContain('no coupon &#39;NOPE-NOT-HERE&#39;');

    const address = await post(
      '/admin/orders/new',
      {
        _csrf: token,
        step: 'place',
        email: `a-${uid()}@example.com`,
        'lines.0.variantId': variant,
        'lines.0.quantity': '1',
        'shippingAddress.line1': '1 Main St',
        'shippingAddress.country': 'ZZ',
      },
      session,
    );
    expect(address.res.status).toBe(422);
    expect(errorOf(address.html, 'shippingAddress.city')).toBeTruthy();
    expect(errorOf(address.html, 'shippingAddress.country')).toContain('country code');
    expect(address.html).toContain('value="1 Main St"');

    const nobody = await post('/admin/orders/new', { _csrf: token, step: 'review', 'lines.0.variantId': variant, 'lines.0.quantity': '1' }, session);
    expect(nobody.res.status).toBe(422);
    expect(errorOf(nobody.html, 'email')).toContain('give customerId');

    const empty = await post('/admin/orders/new', { _csrf: token, step: 'review', email: `e-${uid()}@example.com` }, session);
    expect(empty.res.status).toBe(422);
    expect(empty.html).toContain('lines');
    expect(await stockOf(variant)).toBe(3);
  });

  it("saves an order's notes from its page (PATCH /api/orders notes), clears them when blank, with no event", async () => {
    const { session, token } = await admin();
    const variant = await variantWithStock(5);
    const placed = await post(
      '/admin/orders/new',
      { _csrf: token, step: 'place', email: `notes-${uid()}@example.com`, currency: 'USD', 'lines.0.variantId': variant, 'lines.0.quantity': '1' },
      session,
    );
    const id = (await getOrder(db(), placed.res.headers.get('Location')!.split('/').pop()!, ALL_ORDERS)).id;
    const eventsBefore = await db().select({ n: sql<number>`count(*)` }).from(events).where(eq(events.type, 'order.updated'));
    const detail = await get(`/admin/orders/${id}`, session);
    expect(detail.html).toContain(`action="/admin/orders/${id}/notes"`);
    const saved = await post(`/admin/orders/${id}/notes`, { _csrf: token, notes: 'Gift wrap, no invoice in the box' }, session);
    expect(saved.res.status).toBe(303);
    expect((await getOrder(db(), id, ALL_ORDERS)).notes).toBe('Gift wrap, no invoice in the box');
    expect((await get(`/admin/orders/${id}`, session)).html).toContain('Gift wrap, no invoice in the box</textarea>');
    const tooLong = await post(`/admin/orders/${id}/notes`, { _csrf: token, notes: 'x'.repeat(2001) }, session);
    expect(tooLong.res.status).toBe(422);
    expect(errorOf(tooLong.html, 'notes')).toBeTruthy();
    await post(`/admin/orders/${id}/notes`, { _csrf: token, notes: '  ' }, session);
    expect((await getOrder(db(), id, ALL_ORDERS)).notes).toBeNull();
    const eventsAfter = await db().select({ n: sql<number>`count(*)` }).from(events).where(eq(events.type, 'order.updated'));
    expect(eventsAfter[0]!.n).toBe(eventsBefore[0]!.n);
  });

  it('is 403 without orders:write, and the list has no link', async () => {
    const session = await withPermissions(['orders:read']);
    const list = await get('/admin/orders', session);
    expect(list.res.status).toBe(200);
    expect(list.html).not.toContain('href="/admin/orders/new"');
    expect((await get('/admin/orders/new', session)).res.status).toBe(403);
    const token = csrfIn(list.html);
    const variant = await variantWithStock(3);
    const posted = await post(
      '/admin/orders/new',
      { _csrf: token, step: 'place', email: `x-${uid()}@example.com`, 'lines.0.variantId': variant, 'lines.0.quantity': '1' },
      session,
    );
    expect(posted.res.status).toBe(403);
    expect(await stockOf(variant)).toBe(3);
  });
});
