// Browser test of the reference storefront (examples/storefront): the Worker with its own state
// (e2e/server.mjs) allowing the storefront's origin (CORS_ORIGINS), the storefront served on ANOTHER
// origin (examples/storefront/serve.mjs) with a publishable key minted for that origin alone, and
// Debian's Chromium driven by Playwright (playwright-core).
// A shopper browses a category with facets and sorting, searches with suggestions, adds two
// variants, reloads (the cart stays), signs up (the cart comes along), checks out (address, shipping
// and tax, coupon), pays by bank transfer (staff then record the money) and sees the order number
// and the order history. Any console error (a CORS refusal is one), page error, failed request or
// error answer fails the test. Every API call the page makes carries the publishable key while
// signed out and the customer's JWT once signed in; the same key used from a second origin (one
// CORS allows) is refused, 403.
// Run: node --test e2e/storefront.e2e.mjs. Screenshots: docs/screenshots/storefront-*.png.

import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { startStorefront } from '../examples/storefront/serve.mjs';
import { productPng } from '../scripts/lib/seed-images.mjs';
import { launchChromium, SHOTS } from './panel-browser.mjs';
import { freePort, startWorker } from './server.mjs';

// A loaded two-core machine: wrangler's first requests compile the Worker, so waits are generous.
const WAIT = 60_000;

let worker;
let storefront;
let browser;
let page;
let key;
/** The storefront's publishable key (pk_...), allowed from its origin only. */
let pk;
/** A page on a second origin, which CORS allows but the publishable key does not. */
let other;
const problems = [];
const apiAnswers = [];
const authorizations = [];

async function api(method, url, body, { credential = key, contentType } = {}) {
  const binary = body instanceof Uint8Array;
  const res = await fetch(`${worker.base}${url}`, {
    method,
    headers: {
      ...(credential ? { Authorization: `Bearer ${credential}` } : {}),
      ...(body !== undefined ? { 'Content-Type': contentType ?? 'application/json' } : {}),
    },
    body: body === undefined ? undefined : binary ? body : JSON.stringify(body),
  });
  const json = await res.json().catch(() => null);
  assert.ok(res.ok, `${method} ${url} answered ${res.status}: ${JSON.stringify(json)}`);
  return json?.data;
}

/** A full-page screenshot, without the status toast of the last action (it would cover part of the page). */
async function shot(name) {
  await page.evaluate(() => (document.getElementById('status').textContent = ''));
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}
/** No console error, page error, failed request or error answer so far. */
const assertClean = (where) => assert.deepEqual(problems, [], `problems ${where}:\n${problems.join('\n')}`);

/** A small shop: categories, brands, products with variants and pictures, shipping, NY tax, a coupon, a menu, a banner. */
async function seedShop() {
  await api('PATCH', '/api/settings', { name: 'E2E Outfitters', shippingFlatRate: 5, freeShippingThreshold: null });
  await api('POST', '/api/settings/taxes', { name: 'New York', country: 'US', region: 'NY', rate: 8.875 });
  await api('POST', '/api/coupons', { code: 'WELCOME10', type: 'percentage', value: 10 });
  const clothing = await api('POST', '/api/categories', { name: 'Clothing', slug: 'clothing', position: 0 });
  const tees = await api('POST', '/api/categories', { name: 'T-shirts', slug: 't-shirts', parentId: clothing.id });
  const kitchen = await api('POST', '/api/categories', { name: 'Kitchen', slug: 'kitchen', position: 1 });
  const northwind = await api('POST', '/api/brands', { name: 'Northwind' });
  const loom = await api('POST', '/api/brands', { name: 'Loom & Thread' });
  const copper = await api('POST', '/api/brands', { name: 'Copperpot' });
  const products = [
    {
      name: 'Classic Crew Tee',
      slug: 'classic-crew-tee',
      description: 'Soft combed cotton, a regular fit.\n\nMachine washable.',
      price: 20,
      brandId: northwind.id,
      categoryIds: [tees.id],
      variants: [
        { name: 'Small', sku: 'TEE-S', options: { size: 'S' }, price: 20, stock: 12, position: 0 },
        { name: 'Medium', sku: 'TEE-M', options: { size: 'M' }, price: 22, stock: 3, position: 1 },
        { name: 'Large', sku: 'TEE-L', options: { size: 'L' }, price: 22, stock: 0, position: 2 },
      ],
    },
    { name: 'Garment-Dyed Pocket Tee', price: 28, brandId: loom.id, categoryIds: [tees.id], stock: 20 },
    { name: 'Heavyweight Hoodie', price: 64, compareAtPrice: 80, brandId: loom.id, categoryIds: [clothing.id], stock: 8 },
    { name: 'Crewneck Sweatshirt', price: 45, brandId: northwind.id, categoryIds: [clothing.id], stock: 15 },
    { name: 'Stoneware Mug', price: 12, brandId: copper.id, categoryIds: [kitchen.id], stock: 40 },
    { name: 'Cast Iron Skillet', price: 39, brandId: copper.id, categoryIds: [kitchen.id], stock: 6 },
  ];
  const created = {};
  for (const product of products) {
    const p = await api('POST', '/api/products', { status: 'active', ...product });
    const media = await api('POST', `/api/products/${p.id}/media?alt=${encodeURIComponent(product.name)}`, new Uint8Array(productPng(product.name, 360)), {
      contentType: 'image/png',
    });
    created[product.name] = { ...p, picture: media.url };
  }
  await api('POST', '/api/pages', { title: 'About us', slug: 'about', body: 'We sell **good things** and ship them fast.', status: 'published' });
  await api('POST', '/api/menus', {
    name: 'Main',
    handle: 'main',
    items: [
      { label: 'Clothing', type: 'category', targetId: 'clothing' },
      { label: 'Kitchen', type: 'category', targetId: 'kitchen' },
      { label: 'About', type: 'page', targetId: 'about' },
    ],
  });
  await api('POST', '/api/menus', { name: 'Footer', handle: 'footer', items: [{ label: 'About us', type: 'page', targetId: 'about' }] });
  await api('POST', '/api/banners', {
    title: 'New tees, softer than ever',
    imageUrl: created['Classic Crew Tee'].picture,
    altText: 'The Classic Crew Tee',
    linkUrl: '/categories/t-shirts',
    placement: 'home-hero',
  });
  return created;
}

before(async () => {
  await mkdir(SHOTS, { recursive: true });
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  other = await startBlankPage();
  worker = await startWorker({ vars: { CORS_ORIGINS: `${origin},${other.url}` } });

  const login = await api('POST', '/api/auth/login', { email: worker.admin.email, password: worker.admin.password }, { credential: null });
  key = (await api('POST', '/api/settings/api-keys', { name: 'e2e storefront', role: 'admin' }, { credential: login.token })).key;
  pk = (await api('POST', '/api/settings/api-keys', { name: 'e2e storefront (browser)', type: 'publishable', allowedOrigins: [origin] })).key;
  assert.match(pk, /^pk_[0-9A-Za-z]{40}$/);
  storefront = await startStorefront({ port, host: '127.0.0.1', apiUrl: worker.base, publishableKey: pk, stripePublishableKey: '' });
  assert.equal(storefront.url, origin);
  assert.notEqual(new URL(worker.base).origin, origin, 'the storefront runs on its own origin');
  await seedShop();

  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, baseURL: storefront.url });
  context.setDefaultTimeout(WAIT);
  context.setDefaultNavigationTimeout(WAIT * 2);
  page = await context.newPage();
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.method()} ${request.url()} ${request.failure()?.errorText}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`error answer: ${response.status()} ${response.request().method()} ${response.url()}`);
    if (response.url().startsWith(`${worker.base}/api/`)) apiAnswers.push(response);
  });
  page.on('request', (request) => {
    if (request.url().startsWith(`${worker.base}/api/`) && request.method() !== 'OPTIONS') {
      authorizations.push({ method: request.method(), url: request.url(), authorization: request.headers().authorization ?? null });
    }
  });
});

after(async () => {
  await browser?.close().catch(() => {});
  await storefront?.close();
  await other?.close();
  await worker?.stop();
});

/** A blank page on an origin of its own (for calling the API from a second origin). */
async function startBlankPage() {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html lang="en"><title>Another shop</title><h1>Another shop</h1></html>');
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

test('a shopper browses, searches, fills a cart, signs up, checks out and sees the order number', async () => {
  // Home: the banner and the menu come from the content API.
  await page.goto('/');
  await page.locator('html[data-ready=true]').waitFor();
  await page.locator('.banner h2', { hasText: 'New tees, softer than ever' }).waitFor();
  await page.locator('#main-menu a', { hasText: 'Kitchen' }).waitFor();
  await page.locator('.grid .card').first().waitFor();
  // The store's name (the settings', from GET /api) in the header and the title, not "Store".
  await page.locator('header .brand', { hasText: 'E2E Outfitters' }).waitFor();
  assert.match(await page.title(), /E2E Outfitters$/);
  assert.equal(await page.locator('#footer-menu a', { hasText: 'About us' }).count(), 1);
  await shot('storefront-home');
  assertClean('on the home page');

  // A category: sub-categories' products included, a brand facet, sorting by price.
  await page.locator('#main-menu a', { hasText: 'Clothing' }).click();
  await page.locator('h1', { hasText: 'Clothing' }).waitFor();
  await page.locator('#result-count', { hasText: '4 products' }).waitFor();
  await page.locator('.facet label', { hasText: 'Northwind' }).click();
  await page.locator('#result-count', { hasText: '2 products' }).waitFor();
  assert.equal(await page.locator('input[name=brand]:checked').getAttribute('value'), 'northwind');
  await page.selectOption('#sort', 'price:desc');
  await page.waitForFunction(() => location.hash.includes('sort=price%3Adesc') || location.hash.includes('sort=price:desc'));
  await page.locator('.grid .card h3').first().filter({ hasText: 'Crewneck Sweatshirt' }).waitFor();
  assert.deepEqual(await page.locator('.grid .card h3').allTextContents(), ['Crewneck Sweatshirt', 'Classic Crew Tee']);
  await shot('storefront-category');

  // Search with suggestions, then the results page.
  await page.locator('#search').pressSequentially('crew', { delay: 40 });
  await page.locator('#suggestions [role=option]', { hasText: 'Classic Crew Tee' }).waitFor();
  assert.equal(await page.locator('#search').getAttribute('aria-expanded'), 'true');
  await shot('storefront-search');
  await page.locator('#search').press('Enter');
  await page.locator('h1', { hasText: 'Results for “crew”' }).waitFor();
  await page.locator('.grid .card h3', { hasText: 'Classic Crew Tee' }).waitFor();
  await page.locator('.grid .card a', { hasText: 'Classic Crew Tee' }).click();

  // The product: its picture from /media, three variants (one sold out), stock shown; two added.
  await page.locator('h1', { hasText: 'Classic Crew Tee' }).waitFor();
  assert.match(await page.locator('#main-image').getAttribute('src'), new RegExp(`^${worker.base}/media/`));
  await page.waitForFunction(() => document.querySelector('#main-image')?.complete && document.querySelector('#main-image').naturalWidth > 0);
  assert.equal(await page.locator('#stock').textContent(), '12 in stock');
  assert.equal(await page.locator('input[name=variant][value]').count(), 3);
  assert.ok(await page.locator('.variant', { hasText: 'Large' }).locator('input').isDisabled(), 'the sold-out variant cannot be chosen');
  await page.locator('.buy button[type=submit]').click();
  await page.locator('#added', { hasText: 'Added Classic Crew Tee (Small) to your cart.' }).waitFor();
  await page.locator('.variant', { hasText: 'Medium' }).click();
  assert.equal(await page.locator('#stock').textContent(), 'Only 3 left');
  await shot('storefront-product');
  await page.locator('.buy button[type=submit]').click();
  await page.locator('#added', { hasText: 'Added Classic Crew Tee (Medium) to your cart.' }).waitFor();
  await page.locator('#cart-count', { hasText: '2' }).waitFor();
  assertClean('while filling the cart');

  // The cart survives a reload (its id and token are in localStorage).
  await page.locator('#cart-link').click();
  await page.locator('h1', { hasText: 'Your cart' }).waitFor();
  await page.reload();
  await page.locator('html[data-ready=true]').waitFor();
  await page.locator('.lines .line').nth(1).waitFor();
  assert.equal(await page.locator('.lines .line').count(), 2);
  assert.equal(await page.locator('.totals tr').first().locator('td').textContent(), '$42.00');
  await shot('storefront-cart');
  const guest = await page.evaluate(() => JSON.parse(localStorage.getItem('storefront.cart')));
  assert.ok(guest?.id && guest?.token, 'the guest cart is kept in localStorage');

  // Sign up from the cart: the guest cart is taken into the new account.
  await page.locator('.summary a', { hasText: 'create an account' }).click();
  await page.locator('h1', { hasText: 'Create an account' }).waitFor();
  const email = `ada+${Date.now()}@example.com`;
  await page.fill('#f-name', 'Ada Lovelace');
  await page.fill('#f-email', email);
  await page.fill('#f-password', 'correct horse battery');
  await page.locator('form.auth button[type=submit]').click();
  await page.locator('h1', { hasText: 'Checkout' }).waitFor();
  await page.locator('#account-link', { hasText: 'Hi, Ada' }).waitFor();
  assert.equal(await page.locator('.summary .mini-lines li').count(), 2, 'both lines came along');
  assert.equal(await page.evaluate(() => localStorage.getItem('storefront.cart')), null);

  // Checkout: the address gives shipping and tax (the cart's quote), then a coupon.
  assert.equal((await page.locator('.totals .tax td').textContent()).trim(), 'Calculated from your address');
  await page.fill('#f-firstName', 'Ada');
  await page.fill('#f-lastName', 'Lovelace');
  await page.fill('#f-line1', '1 Main St');
  await page.fill('#f-city', 'New York');
  await page.fill('#f-region', 'NY');
  await page.fill('#f-postalCode', '10001');
  await page.selectOption('#f-country', 'US');
  await page.locator('#address-form button[type=submit]').click();
  await page.locator('#pay-form').waitFor();
  assert.equal(await page.locator('.totals .shipping td').textContent(), '$5.00');
  await page.fill('#coupon-code', 'welcome10');
  await page.locator('form.coupon button[type=submit]').click();
  await page.locator('form.coupon strong', { hasText: 'WELCOME10' }).waitFor();
  const amount = async (row) => Number((await page.locator(`.totals .${row} td`).textContent()).replace(/[^0-9.]/g, ''));
  const [subtotal, discount, shipping, tax, total] = [
    await page.locator('.totals tr').first().locator('td').textContent(),
    await amount('discount'),
    await amount('shipping'),
    await amount('tax'),
    await amount('grand'),
  ];
  assert.equal(subtotal, '$42.00');
  assert.equal(discount, 4.2);
  assert.equal(shipping, 5);
  assert.ok(tax > 0, `NY tax is charged (${tax})`);
  assert.equal(Math.round((42 - discount + shipping + tax) * 100), Math.round(total * 100));
  await shot('storefront-checkout');

  // Pay by bank transfer (manual): the order is placed and its number shown.
  assert.ok(await page.locator('input[name=method][value=manual]').isChecked());
  assert.equal(await page.locator('input[name=method][value=card]').count(), 0, 'no card payment without Stripe keys');
  await page.locator('#pay-form button[type=submit]').click();
  await page.locator('h1', { hasText: 'Thank you!' }).waitFor();
  const number = (await page.locator('#order-number').textContent()).trim();
  assert.match(number, /^#1\d{3}$/);
  await page.locator('h2', { hasText: 'Paying by bank transfer' }).waitFor();
  await shot('storefront-confirmation');
  const orderId = await page.evaluate(() => location.hash.match(/#\/orders\/([^/]+)\/confirmation/)[1]);

  // Staff record the money (manual payments are staff's: a customer cannot mark its order paid).
  const payment = await api('POST', `/api/orders/${orderId}/payments`, { provider: 'manual', reference: `bank transfer ${number}` });
  assert.equal(payment.status, 'completed');

  // The order history shows it paid, with the saved address.
  await page.locator('#account-link').click();
  await page.locator('h1', { hasText: 'Your account' }).waitFor();
  const row = page.locator('table.orders tbody tr', { hasText: number });
  await row.waitFor();
  assert.match(await row.textContent(), /Paid, being prepared/);
  assert.match(await page.locator('section', { hasText: 'Saved addresses' }).textContent(), /1 Main St/);
  await shot('storefront-orders');
  await row.locator('a').click();
  await page.locator('h1', { hasText: `Order ${number}` }).waitFor();

  // Every API request made while signed out (the sign-up itself included) carried the publishable
  // key, and every one after it the customer's JWT: nothing went out without a credential.
  const signUp = authorizations.findIndex((r) => r.method === 'POST' && new URL(r.url).pathname === '/api/auth/register');
  assert.ok(signUp > 10, `the sign-up came after the browsing (request ${signUp})`);
  const signedOut = authorizations.slice(0, signUp + 1);
  const signedIn = authorizations.slice(signUp + 1);
  const without = (list, test) => list.filter((r) => !test(r.authorization ?? '')).map((r) => `${r.method} ${r.url}: ${r.authorization}`);
  assert.deepEqual(
    without(signedOut, (a) => a === `Bearer ${pk}`),
    [],
    'signed-out calls send the publishable key',
  );
  assert.ok(
    signedOut.some((r) => new URL(r.url).pathname === '/api/products'),
    'the catalogue was read with it',
  );
  assert.ok(
    signedOut.some((r) => r.method === 'POST' && /^\/api\/carts\/[^/]+\/lines$/.test(new URL(r.url).pathname)),
    'the guest cart was filled with it',
  );
  assert.ok(
    signedIn.some((r) => new URL(r.url).pathname.endsWith('/checkout')),
    'the checkout came after the sign-up',
  );
  assert.deepEqual(
    without(signedIn, (a) => /^Bearer ey/.test(a)),
    [],
    'signed-in calls send the customer token',
  );
  // Every API answer the page read carried the storefront's CORS grant.
  assert.ok(apiAnswers.length > 10);
  for (const answer of apiAnswers) {
    if (answer.request().method() === 'OPTIONS') continue;
    assert.equal(answer.headers()['access-control-allow-origin'], storefront.url, `grant on ${answer.url()}`);
  }
  assertClean('through checkout');
});

test('the publishable key is refused (403) from an origin not on its list, even one CORS allows', async () => {
  const direct = async (origin) => {
    const res = await fetch(`${worker.base}/api/products?limit=1`, { headers: { Authorization: `Bearer ${pk}`, Origin: origin } });
    return { status: res.status, body: await res.json() };
  };
  assert.equal((await direct(storefront.url)).status, 200);
  const refused = await direct(other.url);
  assert.equal(refused.status, 403);
  assert.equal(refused.body.error.code, 'AUTHORIZATION_ERROR');
  assert.ok(refused.body.error.message.includes(other.url), refused.body.error.message);

  // From a page on that origin in the browser: CORS lets the page read the answers, so the refusal is the key's.
  const elsewhere = await page.context().newPage();
  try {
    await elsewhere.goto(other.url);
    const fromPage = await elsewhere.evaluate(
      async ({ api, key }) => {
        const call = async (headers) => {
          const res = await fetch(`${api}/api/products?limit=1`, { headers });
          return { status: res.status, code: (await res.json()).error?.code ?? null };
        };
        return { withKey: await call({ Authorization: `Bearer ${key}` }), anonymous: await call({}) };
      },
      { api: worker.base, key: pk },
    );
    assert.deepEqual(fromPage, { withKey: { status: 403, code: 'AUTHORIZATION_ERROR' }, anonymous: { status: 200, code: null } });
  } finally {
    await elsewhere.close();
  }
  assertClean('on the storefront meanwhile');
});

test('a phone-sized screen: the product page in one column', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/#/products/classic-crew-tee');
  await page.locator('html[data-ready=true]').waitFor();
  await page.locator('h1', { hasText: 'Classic Crew Tee' }).waitFor();
  await page.waitForFunction(() => document.querySelector('#main-image')?.complete);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `no sideways scrolling (${width}px)`);
  await shot('storefront-phone');
  assertClean('on a phone');
});
