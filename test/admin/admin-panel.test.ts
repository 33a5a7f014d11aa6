import { env } from 'cloudflare:workers';
import { workerFetch } from '../worker-fetch';
import { describe, expect, it } from 'vitest';
import { createProduct } from '../../src/modules/products/products.service';
import { createUser } from '../../src/modules/users/users.service';
import { createVendor } from '../../src/modules/vendors/vendors.service';
import { orderRow, placeTestOrder, twoParcels } from '../commerce/order-fixtures';
import { db, TEST_PASSWORD, uid } from '../helpers';
import { cookieIn, csrfIn, get, ORIGIN, post, signIn } from './panel-client';

async function staff(roleId: string, vendorId: string | null = null) {
  const email = `${roleId}-${uid()}@example.com`;
  const password = 'correct horse battery';
  await createUser(db(), { email, password, roleId, vendorId });
  return { email, password };
}

describe('admin panel sign-in', () => {
  it('signs an admin in with an HttpOnly, SameSite session cookie scoped to /admin, and out again', async () => {
    const admin = await staff('admin');
    const { res, session } = await signIn(admin.email, admin.password);
    expect(res.status).toBe(303);
    expect(res.headers.get('Location')).toBe('/admin');
    const cookie = cookieIn(res, 'admin_session')!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\/admin/);
    // ENVIRONMENT=development in the tests (plain http on localhost); deployed, the cookie is Secure.
    expect(cookie).not.toMatch(/Secure/);

    const dashboard = await get('/admin', session);
    expect(dashboard.res.status).toBe(200);
    expect(dashboard.html).toContain('<h1>Dashboard</h1>');

    const out = await post('/admin/sign-out', { _csrf: csrfIn(dashboard.html) }, session);
    expect(out.res.headers.get('Location')).toBe('/admin/sign-in');
    const after = await get('/admin', session);
    expect(after.res.status).toBe(303);
    expect(after.res.headers.get('Location')).toBe('/admin/sign-in?next=%2Fadmin');
  });

  it('names its icon on every page, served without a session, so no browser asks for a /favicon.ico the store has not', async () => {
    const page = await get('/admin/sign-in');
    expect(page.html).toContain('<link rel="icon" href="/admin/assets/icon.svg" type="image/svg+xml"/>');
    const icon = await workerFetch(`${ORIGIN}/admin/assets/icon.svg`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('Content-Type')).toBe('image/svg+xml');
    expect(await icon.text()).toMatch(/^<svg /);
  });

  it('locks an account out from one address after five wrong passwords, even with the right one', async () => {
    const admin = await staff('admin');
    for (let i = 0; i < 4; i++) expect((await signIn(admin.email, 'wrong password', '192.0.2.20')).res.status).toBe(401);
    const fifth = await signIn(admin.email, 'wrong password', '192.0.2.20');
    expect(fifth.res.status).toBe(429);
    const right = await signIn(admin.email, admin.password, '192.0.2.20');
    expect(right.res.status).toBe(429);
    expect(right.html).toContain('Too many failed sign-ins');
    expect(right.session).toBe('');
    // Another address is not locked out by these failures.
    expect((await signIn(admin.email, admin.password, '192.0.2.21')).res.status).toBe(303);
  });

  it('shares its lock-out with the API login: failures at either count for both', async () => {
    const admin = await staff('admin');
    const viaApi = () =>
      workerFetch(
        new Request(`${ORIGIN}/api/auth/login`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'CF-Connecting-IP': '192.0.2.30' },
          body: JSON.stringify({ email: admin.email, password: 'wrong password' }),
        }),
      );
    for (let i = 0; i < 3; i++) {
      const failed = await viaApi();
      await failed.text();
      expect(failed.status).toBe(401);
    }
    expect((await signIn(admin.email, 'wrong password', '192.0.2.30')).res.status).toBe(401);
    expect((await signIn(admin.email, 'wrong password', '192.0.2.30')).res.status).toBe(429);
    const api = await viaApi();
    await api.text();
    expect(api.status).toBe(429);
  });

  it('refuses customers, and a sign-in form without its CSRF token', async () => {
    const customer = await staff('customer');
    const refused = await signIn(customer.email, customer.password);
    expect(refused.res.status).toBe(403);
    expect(refused.session).toBe('');

    const admin = await staff('admin');
    const forged = await post('/admin/sign-in', { email: admin.email, password: admin.password }, '');
    expect(forged.res.status).toBe(403);
    expect(cookieIn(forged.res, 'admin_session')).toBeUndefined();
  });
});

describe('admin panel CSRF', () => {
  it('refuses a state-changing form without the session token or from another origin', async () => {
    const admin = await staff('admin');
    const { session } = await signIn(admin.email, admin.password);
    const page = await get('/admin/coupons', session);
    const token = csrfIn(page.html);
    const code = `CSRF-${uid()}`.toUpperCase();

    expect((await post('/admin/coupons', { code, type: 'percentage', value: '10' }, session)).res.status).toBe(403);
    expect((await post('/admin/coupons', { _csrf: 'x'.repeat(token.length), code, type: 'percentage', value: '10' }, session)).res.status).toBe(403);
    expect((await post('/admin/coupons', { _csrf: token, code, type: 'percentage', value: '10' }, session, { Origin: 'https://evil.example' })).res.status).toBe(403);

    const ok = await post('/admin/coupons', { _csrf: token, code, type: 'percentage', value: '10' }, session);
    expect(ok.res.status).toBe(303);
    expect((await get('/admin/coupons', session)).html).toContain(code);
  });

  it('shows the API validation messages next to the fields of a failed form', async () => {
    const admin = await staff('admin');
    const { session } = await signIn(admin.email, admin.password);
    const token = csrfIn((await get('/admin/products/new', session)).html);
    const { res, html } = await post('/admin/products/new', { _csrf: token, name: 'Bad price', price: '12.345' }, session);
    expect(res.status).toBe(422);
    expect(html).toMatch(/id="f-price-error">[^<]*decimal/);
    expect(html).toContain('value="Bad price"');
  });

  it("publishes the outbox events of its writes right away, as the API's writes do", async () => {
    const admin = await staff('admin');
    const { session } = await signIn(admin.email, admin.password);
    const token = csrfIn((await get('/admin/products/new', session)).html);
    const name = `Panel product ${uid()}`;
    const { res } = await post('/admin/products/new', { _csrf: token, name, price: '12.50' }, session);
    expect(res.status).toBe(303);
    const published = () =>
      env.DB.prepare("SELECT published_at AS at FROM events WHERE type = 'product.created' AND json_extract(data, '$.product.name') = ?").bind(name).first<{ at: string | null }>();
    await expect.poll(async () => (await published())?.at ?? null, { timeout: 5_000, interval: 100 }).not.toBeNull();
  });
});

describe('admin panel vendor scope', () => {
  it('shows a vendor user only its own products and keeps it out of admin-only areas', async () => {
    const [mine, theirs] = await Promise.all([createVendor(db(), { name: `Mine ${uid()}` }), createVendor(db(), { name: `Theirs ${uid()}` })]);
    const own = await createProduct(db(), { name: `Own ${uid()}`, price: 5 }, mine.id);
    const other = await createProduct(db(), { name: `Other ${uid()}`, price: 5 }, theirs.id);
    const vendor = await staff('vendor', mine.id);
    const { session } = await signIn(vendor.email, vendor.password);

    const list = await get('/admin/products', session);
    expect(list.res.status).toBe(200);
    expect(list.html).toContain(own.name);
    expect(list.html).not.toContain(other.name);
    expect((await get(`/admin/products/${other.id}`, session)).res.status).toBe(404);
    expect((await get(`/admin/products/${own.id}`, session)).res.status).toBe(200);

    for (const path of ['/admin/settings/api-keys', '/admin/webhooks', '/admin/customers', '/admin/settings']) {
      expect((await get(path, session)).res.status, path).toBe(403);
    }
    // Renaming another vendor's product through a forged form is the API's 404 too.
    const token = csrfIn(list.html);
    expect((await post(`/admin/products/${other.id}`, { _csrf: token, name: 'Taken over', price: '1' }, session)).res.status).toBe(404);
  });
});

describe('admin panel setup', () => {
  it('does not exist while no BOOTSTRAP_SECRET is configured, and sign-in does not offer it', async () => {
    const setup = await get('/admin/setup');
    expect(setup.res.status).toBe(404);
    expect((await get('/admin/sign-in')).html).not.toContain('/admin/setup');
  });
});

describe('admin panel orders for a vendor user', () => {
  it('lists only the orders holding its lines, hides the others, and refuses payments and cancelling', async () => {
    const [mine, theirs] = await Promise.all([createVendor(db(), { name: `Mine ${uid()}` }), createVendor(db(), { name: `Theirs ${uid()}` })]);
    const own = await placeTestOrder({ product: { vendorId: mine.id } });
    const other = await placeTestOrder({ product: { vendorId: theirs.id } });
    const vendor = await staff('vendor', mine.id);
    const { session } = await signIn(vendor.email, vendor.password);

    const list = await get('/admin/orders', session);
    expect(list.res.status).toBe(200);
    expect(list.html).toContain(own.order.id);
    expect(list.html).not.toContain(other.order.id);
    expect((await get(`/admin/orders/${other.order.id}`, session)).res.status).toBe(404);
    const detail = await get(`/admin/orders/${own.order.id}`, session);
    expect(detail.res.status).toBe(200);
    expect(detail.html).not.toContain('Record payment');

    const token = csrfIn(detail.html);
    expect((await post(`/admin/orders/${own.order.id}/payments`, { _csrf: token, amount: '1' }, session)).res.status).toBe(403);
    expect((await post(`/admin/orders/${own.order.id}/cancel`, { _csrf: token }, session)).res.status).toBe(403);
    expect((await orderRow(own.order.id)).status).toBe('pending');
  });

  it("shows on an order's page the money of its own lines and only the parcels carrying them", async () => {
    const { order, vendorA, onlyB, mixed } = await twoParcels();
    const { session } = await signIn(vendorA.user.email, TEST_PASSWORD);
    const detail = await get(`/admin/orders/${order.id}`, session);
    expect(detail.res.status).toBe(200);
    // Its line is 22.00 of the order's 57.00 (paid in full, which is not its to see).
    expect(detail.html).toContain('<strong>22.00 USD</strong>');
    expect(detail.html).not.toContain('57.00');
    expect(detail.html).not.toContain('<dt>Paid</dt>');
    expect(detail.html).toContain(mixed.id);
    expect(detail.html).not.toContain(onlyB.id);
    expect(detail.html).not.toContain(onlyB.trackingNumber!);
  });
});

describe('admin panel customers', () => {
  it('lists customers and shows one with its orders; an unknown id is 404', async () => {
    const admin = await staff('admin');
    const { session } = await signIn(admin.email, admin.password);
    const customer = await staff('customer');
    const list = await get(`/admin/customers?q=${encodeURIComponent(customer.email)}`, session);
    expect(list.html).toContain(customer.email);
    const id = /href="\/admin\/customers\/(user_[^"]+)"/.exec(list.html)![1]!;
    const detail = await get(`/admin/customers/${id}`, session);
    expect(detail.res.status).toBe(200);
    expect(detail.html).toContain(customer.email);
    expect(detail.html).toContain('No orders match.');
    expect((await get('/admin/customers/user_unknown', session)).res.status).toBe(404);
  });
});
