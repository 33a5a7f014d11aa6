// Browser tests of the admin panel: Playwright (playwright-core) drives Debian's Chromium against the
// Worker started locally with its own state (e2e/server.mjs). Run: npm run test:e2e
// Screenshots of the main pages are written to docs/screenshots/ (referenced by the README).

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openPanel } from './panel-browser.mjs';

let panel;
let worker;
let browser;
let page;
const state = {};

const shot = (name, target = page) => panel.shot(name, target);
/** The API, called as a client would, with the key the panel generated. */
const api = (method, url, key, body) => panel.api(method, url, key, body);

before(async () => {
  panel = await openPanel({ worker: { bootstrap: false }, wait: 30_000 });
  ({ worker, browser, page } = panel);
});

after(() => panel?.close());

test('a new store: the first admin is created in the browser with the bootstrap secret', async () => {
  await page.goto('/admin/sign-in');
  await page.click('text=Set up the first admin');
  await page.fill('input[name=secret]', 'not-the-secret');
  await page.fill('input[name=name]', worker.admin.name);
  await page.fill('input[name=email]', worker.admin.email);
  await page.fill('input[name=password]', worker.admin.password);
  await page.click('form[action="/admin/setup"] button[type=submit]');
  assert.match(await page.textContent('#f-secret-error'), /BOOTSTRAP_SECRET/);

  await page.fill('input[name=secret]', worker.bootstrapSecret);
  await page.fill('input[name=password]', worker.admin.password);
  await page.click('form[action="/admin/setup"] button[type=submit]');
  await page.waitForURL('**/admin');
  assert.equal(await page.textContent('h1'), 'Dashboard');
  // Once an admin exists the secret creates no one else.
  await page.context().clearCookies();
});

test('signing in: a wrong password is refused next to the form, the right one opens the dashboard', async () => {
  await page.goto('/admin/orders');
  assert.match(page.url(), /\/admin\/sign-in\?next=%2Fadmin%2Forders$/);
  await page.fill('input[name=email]', worker.admin.email);
  await page.fill('input[name=password]', 'not-the-password');
  await page.click('button[type=submit]');
  assert.match(await page.textContent('[role=alert]'), /Invalid email or password/);
  await shot('sign-in');

  await page.fill('input[name=password]', worker.admin.password);
  await page.click('button[type=submit]');
  await page.waitForURL('**/admin/orders');
  assert.equal(await page.textContent('h1'), 'Orders');
  const cookie = (await page.context().cookies()).find((c) => c.name === 'admin_session');
  assert.ok(cookie?.httpOnly, 'the session cookie is HttpOnly');
  assert.equal(cookie.sameSite, 'Lax');
});

test('generating an API key shows it once, and the API accepts it', async () => {
  await page.goto('/admin/settings/api-keys');
  await page.fill('input[name=name]', 'E2E integration');
  await page.selectOption('select[name=role]', 'admin');
  await page.click('form[action="/admin/settings/api-keys"] button[type=submit]');
  const key = (await page.textContent('#new-key-value')).trim();
  assert.match(key, /^sk_[0-9A-Za-z]{40}$/);
  assert.ok(await page.isVisible('button[data-copy="new-key-value"]'), 'the copy button is shown');
  state.key = key;
  await shot('api-keys');

  const products = await api('GET', '/api/products?status=draft', key);
  assert.equal(products.status, 200);
  // The list shows the key by its prefix, never in full, once the page is left.
  await page.goto('/admin/settings/api-keys');
  assert.ok((await page.content()).includes(key.slice(0, 11)));
  assert.ok(!(await page.content()).includes(key));
});

test('creating a product: a bad price is shown next to the field, then the product is created', async () => {
  await page.goto('/admin/products/new');
  await page.fill('input[name=name]', 'E2E Enamel Mug');
  await page.fill('input[name=price]', '12.345');
  // As a browser without form validation would send it: the server's answer is what is tested.
  await page.$eval('form[action="/admin/products/new"]', (form) => {
    form.noValidate = true;
  });
  await page.fill('input[name=stock]', '25');
  await page.selectOption('select[name=status]', 'active');
  await page.click('form[action="/admin/products/new"] button[type=submit]');
  assert.match(await page.textContent('#f-price-error'), /decimal/i);

  await page.fill('input[name=price]', '12.50');
  await page.click('form[action="/admin/products/new"] button[type=submit]');
  await page.waitForURL(/\/admin\/products\/prod_/);
  assert.equal(await page.textContent('h1'), 'E2E Enamel Mug');
  state.productId = page.url().split('/').pop();

  // A second variant, through the same page.
  await page.fill('input[name="new.sku"]', 'MUG-BLUE');
  await page.fill('input[name="new.options"]', 'color=Blue');
  await page.fill('input[name="new.stock"]', '3');
  await page.click('form[action$="/variants"] button[type=submit]');
  await page.waitForSelector('.flash.ok');
  await shot('product-edit');

  const product = await api('GET', `/api/products/${state.productId}`, state.key);
  assert.equal(product.status, 200);
  assert.equal(product.json.data.price, 12.5);
  assert.equal(product.json.data.variants.length, 2);
  state.variantId = product.json.data.variants[0].id;

  await page.goto('/admin/products?q=Mug');
  assert.ok(await page.isVisible('text=E2E Enamel Mug'));
  await shot('products');
});

test('an order placed through the API is paid and shipped in the panel', async () => {
  const placed = await api('POST', '/api/orders', state.key, { email: 'buyer@example.com', lines: [{ variantId: state.variantId, quantity: 2 }] });
  assert.equal(placed.status, 201, JSON.stringify(placed.json));
  const orderId = placed.json.data.id;

  await page.goto(`/admin/orders/${orderId}`);
  assert.ok(await page.isVisible('.actions .badge.b-pending'));
  await page.fill('input[name=reference]', 'BANK-4711');
  await page.click(`form[action="/admin/orders/${orderId}/payments"] button[type=submit]`);
  await page.waitForSelector('text=Payment recorded.');
  assert.ok(await page.isVisible('.actions .badge.b-processing'));

  await page.fill('input[name=carrier]', 'UPS');
  await page.fill('input[name=trackingNumber]', '1Z999AA10123456784');
  await page.click(`form[action="/admin/orders/${orderId}/shipments"] button[type=submit]`);
  await page.waitForSelector('text=Shipment created.');
  assert.ok(await page.isVisible('.actions .badge.b-shipped'));
  await shot('order-detail');

  const order = await api('GET', `/api/orders/${orderId}`, state.key);
  assert.equal(order.json.data.status, 'shipped');
  assert.deepEqual(
    order.json.data.history.map((h) => h.toStatus),
    ['pending', 'processing', 'shipped'],
  );

  // The list names orders by number (#1001) and links to them by it.
  const number = placed.json.data.number;
  await page.goto('/admin/orders');
  assert.equal((await page.textContent(`a[href="/admin/orders/${number}"]`)).trim(), `#${number}`);
  await shot('orders');
});

test('webhooks: an endpoint is added with its secret shown once, and a test ping is queued', async () => {
  await page.goto('/admin/webhooks');
  await page.fill('input[name=url]', 'http://127.0.0.1:9/store-hooks');
  await page.fill('input[name=description]', 'Warehouse sync');
  await page.uncheck('input[name=events][value="*"]');
  await page.check('input[name=events][value="order.placed"]');
  await page.click('form[action="/admin/webhooks"] button[type=submit]');
  assert.match((await page.textContent('#webhook-secret')).trim(), /^whsec_/);
  await page.click('a[href^="/admin/webhooks/we_"]');
  await page.click('text=Send a test ping');
  await page.waitForSelector('text=Test ping queued');
  assert.ok(await page.isVisible('td:has-text("ping")'));
  await shot('webhooks');
});

test('reports: sales and orders charted per day with their figures, best sellers; the dashboard sparkline', async () => {
  await page.goto('/admin/reports');
  assert.equal(await page.textContent('h1'), 'Reports');
  assert.ok(await page.isVisible('svg.chart[aria-labelledby="revenue-title revenue-desc"]'));
  assert.equal(await page.locator('svg.chart').count(), 2);
  // The order placed and paid above is today's: its sales are in the last row of the figures.
  const today = new Date().toISOString().slice(0, 10);
  const row = page.locator('tbody tr', { has: page.locator(`th:text-is("${today}")`) });
  assert.equal((await row.locator('td').first().textContent()).trim(), '1');
  await page.selectOption('select[name=interval]', 'week');
  await page.click('form[aria-label="Report range"] button[type=submit]');
  await page.waitForURL(/interval=week/);
  await shot('admin-reports');

  await page.goto('/admin');
  assert.equal(await page.textContent('h1'), 'Dashboard');
  assert.ok(await page.isVisible('text=Orders placed today, any status'));
  assert.ok(await page.isVisible('svg.sparkline'));
  await shot('dashboard');
});

test('the panel at phone width', async () => {
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, baseURL: worker.base, storageState: await page.context().storageState() });
  const small = await phone.newPage();
  await small.goto('/admin/orders');
  assert.equal(await small.textContent('h1'), 'Orders');
  // Nothing overflows the viewport sideways but the tables' own scroll areas.
  const overflow = await small.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `page overflows sideways by ${overflow}px`);
  await shot('phone-orders', small);
  await phone.close();
});

test('revoking the key in the panel: the API refuses it on the next request', async () => {
  await page.goto('/admin/settings/api-keys');
  await page.click('form[action$="/revoke"] button[type=submit]');
  await page.waitForSelector('text=The key is revoked');
  const res = await api('GET', '/api/orders', state.key);
  assert.equal(res.status, 401);
  assert.equal(res.json.error.code, 'AUTHENTICATION_ERROR');
});

test('a form posted without the CSRF token is refused, and signing out ends the session', async () => {
  const res = await page.request.post('/admin/settings/api-keys', { form: { name: 'forged', role: 'admin' }, maxRedirects: 0 });
  assert.equal(res.status(), 403);
  await page.goto('/admin');
  await page.click('text=Sign out');
  await page.waitForURL('**/admin/sign-in');
  await page.goto('/admin/orders');
  assert.match(page.url(), /\/admin\/sign-in/);
});
