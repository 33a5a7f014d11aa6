// The TypeScript client against a running store: the scenario every client runs (see
// e2e/clients.e2e.mjs, which starts the Worker, mints an admin key and runs this after building the
// package). Needs STORE_API_BASE (e.g. http://127.0.0.1:8787) and STORE_API_KEY (an admin `sk_...`).
//
//   npm run build --prefix clients/typescript
//   STORE_API_BASE=http://127.0.0.1:8787 STORE_API_KEY=sk_... node --test clients/typescript/test/live.test.mjs
//
// It makes its own data with unique names, so it can run again, and after the other clients, on the
// same store. It also type-checks test/types-check.ts against the built declarations.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  AuthorizationError,
  InvalidRequestError,
  NotFoundError,
  RateLimitedError,
  STORE_VERSION,
  StoreApiError,
  StoreClient,
  ValidationError,
  verifyStandardWebhook,
  verifyWebhook,
} from '@store-api/client';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const BASE = process.env.STORE_API_BASE;
const KEY = process.env.STORE_API_KEY;
const RUN = randomUUID().slice(0, 8);

let admin;
let guest;
const state = {};

before(() => {
  assert.ok(BASE, 'STORE_API_BASE is not set (e.g. http://127.0.0.1:8787)');
  assert.ok(KEY, 'STORE_API_KEY is not set (an admin API key, sk_...)');
  admin = new StoreClient({ baseUrl: BASE, apiKey: KEY });
  // Anonymous calls share the client IP's small rate limit: let the client wait it out.
  guest = new StoreClient({ baseUrl: BASE, maxRetries: 6 });
});

test('types-check.ts compiles against the built package, and a wrong parameter type does not', () => {
  const tsc = path.resolve(HERE, '..', '..', '..', 'node_modules', 'typescript', 'bin', 'tsc');
  const result = spawnSync(process.execPath, [tsc, '-p', HERE], { encoding: 'utf8' });
  assert.equal(result.status, 0, `tsc -p clients/typescript/test failed:\n${result.stdout}${result.stderr}`);
});

test('admin: a category and two active products with variants and stock', async () => {
  state.category = await admin.categories.create({ name: `Live TS ${RUN}`, slug: `live-ts-${RUN}` });
  state.cheap = await admin.products.create({
    name: `Live TS mug ${RUN}`,
    price: 12,
    status: 'active',
    categoryIds: [state.category.id],
    variants: [{ sku: `LTS-MUG-${RUN}`, name: 'Default', price: 12, stock: 20 }],
  });
  state.dear = await admin.products.create({
    name: `Live TS shirt ${RUN}`,
    price: 25,
    status: 'active',
    categoryIds: [state.category.id],
    variants: [{ sku: `LTS-SHIRT-S-${RUN}`, name: 'Small', price: 25, stock: 10 }],
  });
  assert.equal(state.dear.status, 'active');
  const large = await admin.products.variants.create(state.dear.id, { sku: `LTS-SHIRT-L-${RUN}`, name: 'Large', price: 27, stock: 5 });
  assert.equal(large.sku, `LTS-SHIRT-L-${RUN}`);
  state.variant = state.dear.variants[0];
  assert.ok(state.variant.id);
});

test('list with a category filter, sort=price:desc and nested fields', async () => {
  const { data, pagination } = await admin.products.list({ category: state.category.slug, sort: 'price:desc', fields: 'id,name,variants(id,price)' });
  assert.equal(pagination.total, 2);
  assert.deepEqual(data.map((p) => p.id), [state.dear.id, state.cheap.id]);
  const faceted = await admin.products.list({ category: state.category.slug, facets: 'category,price', fields: 'id' });
  assert.equal(faceted.facets.category.find((c) => c.id === state.category.id)?.count, 2, 'facets come beside the page');
  for (const product of data) {
    assert.deepEqual(Object.keys(product).sort(), ['id', 'name', 'variants']);
    for (const variant of product.variants) assert.deepEqual(Object.keys(variant).sort(), ['id', 'price']);
  }
  const pages = [];
  for await (const page of admin.products.iterate({ category: state.category.slug, limit: 1 })) pages.push(page.data.map((p) => p.id));
  assert.equal(pages.length, 2, 'iterate() walks every page');
});

test('get one product', async () => {
  const product = await admin.products.get(state.dear.id);
  assert.equal(product.name, `Live TS shirt ${RUN}`);
  assert.equal(product.variants.length, 2);
});

test('upload an image: the raw bytes, typed by the server from them, served back unchanged', async () => {
  const png = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));
  const media = await admin.products.media.create(state.dear.id, png, { alt: 'Front' });
  assert.equal(media.contentType, 'image/png');
  assert.deepEqual([media.width, media.height, media.alt], [1, 1, 'Front']);
  const served = await fetch(media.url);
  assert.deepEqual(new Uint8Array(await served.arrayBuffer()), png);
  assert.equal((await admin.products.get(state.dear.id)).media[0].id, media.id);
});

test('guest: cart, line, checkout with an idempotency key, and its replay', async () => {
  const cart = await guest.carts.create({});
  assert.ok(cart.token, 'a guest cart has a token');
  guest.setCartToken(cart.token);
  const withLine = await guest.carts.lines.add(cart.id, { variantId: state.variant.id, quantity: 2 });
  assert.equal(withLine.lines.length, 1);
  const key = `live-ts-${RUN}`;
  const body = { email: `guest-${RUN}@example.com`, shippingAddress: { line1: '1 Main St', city: 'Berlin', country: 'DE' } };
  const order = await guest.carts.checkout(cart.id, body, { idempotencyKey: key });
  assert.match(order.id, /^ord_/);
  const replay = await guest.carts.checkout(cart.id, body, { idempotencyKey: key });
  assert.equal(replay.id, order.id, 'the same key answers the same order');
  state.orderId = order.id;
});

test('sign up, sign in and me', async () => {
  const email = `live-ts-${RUN}@example.com`;
  const password = `pw-${randomUUID()}`;
  const customer = new StoreClient({ baseUrl: BASE, maxRetries: 6 });
  const signedUp = await customer.auth.register({ email, password, name: 'Live TS' });
  assert.ok(signedUp.token);
  const session = await customer.auth.login({ email, password });
  customer.setToken(session.token);
  const me = await customer.auth.me();
  assert.equal(me.email, email);
});

test('storefront in a browser: a publishable key reads products and makes a guest cart; a shopper\'s token replaces it', async () => {
  const shop = 'https://shop.example';
  const minted = await admin.apiKeys.create({ name: `Live TS storefront ${RUN}`, type: 'publishable', allowedOrigins: [shop] });
  assert.match(minted.key, /^pk_/);
  assert.equal(minted.type, 'publishable');
  // Node sends no Origin (not a browser): accepted. A browser on the shop's origin sends it.
  const browser = new StoreClient({ baseUrl: BASE, publishableKey: minted.key, headers: { Origin: shop } });
  const { data } = await browser.products.list({ category: state.category.slug });
  assert.equal(data.length, 2);
  const cart = await browser.carts.create({});
  assert.ok(cart.token, 'a guest cart, with its token');
  browser.setCartToken(cart.token);
  assert.equal((await browser.carts.lines.add(cart.id, { variantId: state.variant.id, quantity: 1 })).lines.length, 1);
  // Another origin is refused.
  await assert.rejects(new StoreClient({ baseUrl: BASE, publishableKey: minted.key, headers: { Origin: 'https://evil.example' } }).products.list(), AuthorizationError);
  // A shopper signs up through the key; its token is then sent, and signing out goes back to the key.
  const session = await browser.auth.register({ email: `live-ts-pk-${RUN}@example.com`, password: `pw-${randomUUID()}`, name: 'Live TS shopper' });
  browser.setToken(session.token);
  assert.equal((await browser.auth.me()).email, `live-ts-pk-${RUN}@example.com`);
  browser.setToken(null);
  await assert.rejects(browser.auth.me(), AuthorizationError, 'the publishable key alone reaches no account');
  assert.ok(Array.isArray((await browser.products.list({ limit: 1 })).data));
});

test('storefront on a server: a storefront:buyer-ip key with buyerIp is counted on each shopper', async () => {
  const minted = await admin.apiKeys.create({ name: `Live TS server ${RUN}`, permissions: ['storefront:buyer-ip'] });
  const seen = [];
  const recording = async (url, init) => {
    const response = await fetch(url, init);
    seen.push({ status: response.status, buyer: init.headers['X-Buyer-IP'], limit: Number(response.headers.get('x-ratelimit-limit')), remaining: Number(response.headers.get('x-ratelimit-remaining')) });
    return response;
  };
  // Two shoppers of documentation networks, unique to this run (IPv6 /64s).
  const hex = () => Math.floor(Math.random() * 0xffff).toString(16);
  const [first, second] = [`2001:db8:${hex()}:${hex()}::1`, `2001:db8:${hex()}:${hex()}::2`];
  const server = new StoreClient({ baseUrl: BASE, apiKey: minted.key, buyerIp: first, fetch: recording, maxRetries: 0 });
  await server.products.list({ limit: 1 });
  await server.products.list({ limit: 1 });
  await server.products.list({ limit: 1 }, { buyerIp: second });
  assert.deepEqual(seen.map((s) => [s.status, s.buyer]), [[200, first], [200, first], [200, second]]);
  const { limit } = seen[0];
  assert.ok(limit > 2, 'the authenticated limit applies');
  // The second shopper starts afresh (not the key's count). The first shopper's own count went down,
  // unless the test Worker's two-second window passed between its requests (a loaded machine).
  const [firstOnce, firstTwice, secondOnce] = seen.map((s) => s.remaining);
  assert.equal(secondOnce, limit - 1);
  assert.ok(firstOnce === limit - 1 && (firstTwice === limit - 2 || firstTwice === limit - 1), JSON.stringify(seen));
});

test('admin call with the API key: list orders', async () => {
  const { data } = await admin.orders.list({ limit: 100 });
  assert.ok(data.some((o) => o.id === state.orderId), 'the guest order is listed');
});

test('404 and 422 are typed errors with code, status, details and the request id', async () => {
  await assert.rejects(admin.products.get('prod_nope'), (error) => {
    assert.ok(error instanceof NotFoundError && error instanceof StoreApiError);
    assert.equal(error.code, 'NOT_FOUND');
    assert.equal(error.status, 404);
    assert.ok(error.requestId, 'X-Request-Id is kept');
    return true;
  });
  await assert.rejects(admin.products.create({ name: '', price: -1 }), (error) => {
    assert.ok(error instanceof ValidationError);
    assert.equal(error.code, 'VALIDATION_ERROR');
    assert.equal(error.status, 422);
    assert.ok(Array.isArray(error.details) && error.details.length > 0, 'details lists the fields');
    assert.ok(error.details.every((d) => typeof d.field === 'string'));
    assert.ok(error.requestId);
    return true;
  });
});

test('400 and 422 in the version the client was generated for and in 2026-11-20: Store-Version answered, details a list in both', async () => {
  // The admin key was minted on the store's default (2026-11-20): the header the client sends wins over it.
  for (const storeVersion of [undefined, '2026-11-20']) {
    const answered = [];
    const recording = async (url, init) => {
      const response = await fetch(url, init);
      answered.push(response.headers.get('store-version'));
      return response;
    };
    const client = new StoreClient({ baseUrl: BASE, apiKey: KEY, fetch: recording, ...(storeVersion ? { storeVersion } : {}) });
    const version = storeVersion ?? STORE_VERSION;
    assert.equal(client.storeVersion, version);
    await assert.rejects(client.products.list({ limit: 100000 }), (error) => {
      assert.ok(error instanceof InvalidRequestError, String(error));
      assert.equal(error.status, 400);
      assert.equal(error.details.length, 1, JSON.stringify(error.details));
      assert.equal(error.details[0].field, 'limit');
      assert.match(error.details[0].message, /^limit /);
      // What the server sent: one object in 2026-11-20, a list since 2026-11-28.
      assert.equal(Array.isArray(error.body.error.details), version >= '2026-11-28', JSON.stringify(error.body));
      console.log(`[typescript live] ${version}: sent ${JSON.stringify(error.body.error.details)}, read ${JSON.stringify(error.details)}`);
      return true;
    });
    await assert.rejects(client.products.create({ name: '', price: -1 }), (error) => {
      assert.ok(error instanceof ValidationError, String(error));
      assert.deepEqual(error.details.map((d) => d.field).sort(), ['name', 'price']);
      return true;
    });
    assert.deepEqual(answered, [version, version], `answered in ${version}`);
  }
});

test('429: fifteen quick anonymous requests all succeed through the retries', async () => {
  const retries = [];
  const anonymous = new StoreClient({ baseUrl: BASE, maxRetries: 5, onRetry: (info) => retries.push(info) });
  for (let i = 0; i < 15; i++) {
    const { data } = await anonymous.products.list({ limit: 1 });
    assert.ok(Array.isArray(data));
  }
  assert.ok(anonymous.stats.retries >= 1, 'the client retried at least once');
  assert.ok(retries.some((r) => r.status === 429));
  // Told to wait longer than it may: RateLimitedError at once, with Retry-After.
  const impatient = new StoreClient({ baseUrl: BASE, maxRetries: 0 });
  let limited;
  for (let i = 0; i < 15 && !limited; i++) {
    await impatient.products.list({ limit: 1 }).catch((error) => {
      if (!(error instanceof RateLimitedError)) throw error;
      limited = error;
    });
  }
  assert.ok(limited, 'without retries the limit surfaces as RateLimitedError');
  assert.equal(limited.status, 429);
  assert.ok(limited.retryAfter > 0);
});

test('webhook: a test delivery to a loopback receiver verifies, a tampered one does not', async () => {
  const received = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(200).end('ok');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const url = `http://127.0.0.1:${server.address().port}/hook`;
    const endpoint = await admin.webhooks.create({ url, events: ['order.placed'], description: `live ts ${RUN}` });
    assert.match(endpoint.secret, /^whsec_/);
    await admin.webhooks.test(endpoint.id, {});
    const until = Date.now() + 20_000;
    while (received.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
    assert.ok(received.length > 0, 'the receiver got the test delivery within 20 s');
    const { headers, body } = received[0];
    const verified = await verifyWebhook({ body, headers, secret: endpoint.secret });
    assert.equal(verified.valid, true, verified.reason);
    assert.equal(await verifyStandardWebhook({ body, headers, secret: endpoint.secret }), true);
    const tampered = Buffer.from(body.toString('utf8').replace(/}$/, ',"x":1}'));
    assert.equal((await verifyWebhook({ body: tampered, headers, secret: endpoint.secret })).valid, false);
    assert.equal(await verifyStandardWebhook({ body: tampered, headers, secret: endpoint.secret }), false);
    await admin.webhooks.delete(endpoint.id);
  } finally {
    server.close();
  }
});
