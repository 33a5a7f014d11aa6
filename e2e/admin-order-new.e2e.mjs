// Browser test of the admin panel's "New order" page (POST /api/orders from the panel): Playwright
// (playwright-core) drives Debian's Chromium against the Worker started locally with its own state
// (e2e/server.mjs). Run: node --test e2e/admin-order-new.e2e.mjs
// Screenshots are written to docs/screenshots/admin-order-new*.png.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openPanel } from './panel-browser.mjs';

// A loaded two-core machine: wrangler's first requests compile the Worker, so waits are generous.
const WAIT = 60_000;

let panel;
let worker;
let page;
const state = {};

const shot = (name) => panel.shot(name);
const api = (method, url, token, body) => panel.api(method, url, token, body);
/** Clicks a submit button and waits for the page it leads to. */
const submitWith = (button) => panel.submit(button);

/** The value of the option of `select` whose label contains `label`. */
async function optionValue(select, label) {
  const value = await page.locator(`${select} option`, { hasText: label }).first().getAttribute('value', { timeout: WAIT });
  assert.ok(value, `an option "${label}" in ${select}`);
  return value;
}

before(async () => {
  panel = await openPanel({ wait: WAIT, navigationWait: WAIT * 2 });
  ({ worker, page } = panel);

  const login = await api('POST', '/api/auth/login', null, { email: worker.admin.email, password: worker.admin.password });
  assert.equal(login.status, 200, JSON.stringify(login.json));
  const key = await api('POST', '/api/settings/api-keys', login.json.data.token, { name: 'e2e admin', role: 'admin' });
  assert.equal(key.status, 201, JSON.stringify(key.json));
  state.key = key.json.data.key;
  const product = await api('POST', '/api/products', state.key, { name: 'E2E Teapot', sku: 'E2E-TEAPOT', price: 24.5, stock: 5, status: 'active' });
  assert.equal(product.status, 201, JSON.stringify(product.json));
  state.product = product.json.data;
  const customer = await api('POST', '/api/customers', state.key, { email: 'ada@example.com', name: 'Ada Lovelace' });
  assert.equal(customer.status, 201, JSON.stringify(customer.json));
  state.customer = customer.json.data;

  await page.goto('/admin/sign-in');
  await page.fill('input[name=email]', worker.admin.email);
  await page.fill('input[name=password]', worker.admin.password);
  await submitWith('form[action="/admin/sign-in"] button[type=submit]');
  assert.equal(await page.textContent('h1'), 'Dashboard');
});

after(() => panel?.close());

test('too much stock is refused next to the quantity', async () => {
  await page.goto('/admin/orders');
  await submitWith('a[href="/admin/orders/new"]');
  assert.equal(await page.textContent('h1'), 'New order');
  await shot('admin-order-new');
  await page.fill('input[name=email]', 'walk-in@example.com');
  await page.selectOption('select[name="lines.0.variantId"]', await optionValue('select[name="lines.0.variantId"]', 'E2E Teapot'));
  await page.fill('input[name="lines.0.quantity"]', '9');
  await submitWith('button[value=review]');
  const error = await page.locator('#f-lines-0-quantity-error').textContent();
  assert.equal(error, 'only 5 in stock');
  assert.match(await page.locator('main .flash.error').first().textContent(), /Not enough stock for 'E2E Teapot'/);
  await shot('admin-order-new-error');
});

test('an order for a customer: lines added, reviewed, placed; the API shows it and the stock went down', async () => {
  await page.goto('/admin/orders/new');
  await page.selectOption('select[name=customerId]', await optionValue('select[name=customerId]', 'ada@example.com'));
  await page.selectOption('select[name="lines.0.variantId"]', await optionValue('select[name="lines.0.variantId"]', 'E2E Teapot'));
  await page.fill('input[name="lines.0.quantity"]', '1');
  await page.fill('textarea[name=notes]', 'Ordered by phone');
  await submitWith('button[value=add]');
  // The draft is kept and there is a second line to fill.
  assert.equal(await page.locator('select[name=customerId]').inputValue(), state.customer.id);
  await page.locator('select[name="lines.1.variantId"]').waitFor();
  await page.selectOption('select[name="lines.1.variantId"]', await optionValue('select[name="lines.1.variantId"]', 'E2E Teapot'));
  await page.fill('input[name="lines.1.quantity"]', '1');
  await page.fill('input[name="shippingAddress.line1"]', '12 St James Sq');
  await page.fill('input[name="shippingAddress.city"]', 'London');
  await page.fill('input[name="shippingAddress.country"]', 'GB');
  await submitWith('button[value=review]');
  await page.locator('#review-card').waitFor();
  const reviewedTotal = (await page.locator('[data-total=total]').textContent()).trim();
  assert.match(reviewedTotal, /^\d+\.\d\d USD$/);
  await shot('admin-order-new-review');

  await submitWith('#review-card button[value=place]');
  await page.waitForURL(/\/admin\/orders\/\d+$/);
  assert.match(await page.locator('main .flash').first().textContent(), /placed/);
  await shot('admin-order-new-placed');
  const id = new URL(page.url()).pathname.split('/').pop();

  const order = await api('GET', `/api/orders/${id}`, state.key);
  assert.equal(order.status, 200, JSON.stringify(order.json));
  assert.equal(order.json.data.customerId, state.customer.id);
  assert.equal(order.json.data.notes, 'Ordered by phone');
  assert.equal(order.json.data.shippingAddress.country, 'GB');
  assert.equal(
    order.json.data.lines.reduce((n, l) => n + l.quantity, 0),
    2,
  );
  assert.equal(`${order.json.data.total.toFixed(2)} USD`, reviewedTotal);
  const product = await api('GET', `/api/products/${state.product.id}`, state.key);
  assert.equal(product.json.data.variants[0].stock, 3);
});
