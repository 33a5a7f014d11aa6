// The client's runtime without a server: a fake fetch answers, and the tests check the URL and
// headers sent, the envelope unwrapping, the typed errors, the retry rules and the pagination.
// Run after `npm run build --prefix clients/typescript`: node --test clients/typescript/test/unit.test.mjs

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConflictError, InternalError, InvalidRequestError, NotFoundError, RateLimitedError, STORE_VERSION, StoreApiError, StoreClient, StoreConnectionError, ValidationError } from '@store-api/client';

const json = (status, body, headers = {}) => new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'req_1', ...headers } });

/** A client whose fetch answers from `answers` in turn (functions get the request), recording calls. */
function fake(answers, options = {}) {
  const calls = [];
  const client = new StoreClient({
    baseUrl: 'http://store.test/',
    apiKey: 'sk_test',
    retryBaseDelayMs: 1,
    fetch: async (url, init) => {
      calls.push({ url, ...init, headers: { ...init.headers } });
      const next = answers[Math.min(calls.length - 1, answers.length - 1)];
      if (next instanceof Error) throw next;
      return typeof next === 'function' ? next(url, init) : next.clone();
    },
    ...options,
  });
  return { client, calls };
}

test('builds the URL, query and headers, and unwraps an item', async () => {
  const { client, calls } = fake([json(200, { success: true, data: { id: 'prod_1' }, message: 'ok' })]);
  const product = await client.products.get('a b/c', { fields: 'id,name' });
  assert.deepEqual(product, { id: 'prod_1' });
  assert.equal(calls[0].url, 'http://store.test/api/products/a%20b%2Fc?fields=id%2Cname');
  assert.equal(calls[0].method, 'GET');
  assert.equal(calls[0].headers.Authorization, 'Bearer sk_test');
  assert.equal(calls[0].headers['Idempotency-Key'], undefined);
});

test('sends back the newest X-D1-Bookmark it was given, so reads see its own writes', async () => {
  const { client, calls } = fake([
    json(201, { success: true, data: { id: 'prod_1' } }, { 'X-D1-Bookmark': '00000002-0000000a' }),
    json(200, { success: true, data: { id: 'prod_1' } }, { 'X-D1-Bookmark': '00000001-00000001' }),
    json(200, { success: true, data: { id: 'prod_1' } }),
  ]);
  await client.products.create({ name: 'x', price: 1 });
  await client.products.get('prod_1');
  await client.products.get('prod_1');
  assert.deepEqual(calls.map((c) => c.headers['X-D1-Bookmark']), [undefined, '00000002-0000000a', '00000002-0000000a']);
  assert.equal(client.bookmark, '00000002-0000000a');
});

test('lists answer data and pagination; numbers and booleans go in the query', async () => {
  const pagination = { page: 1, limit: 20, total: 1, totalPages: 1, hasNext: false, hasPrev: false };
  const { client, calls } = fake([json(200, { success: true, data: [{ id: 'prod_1' }], pagination })]);
  const page = await client.products.list({ price_max: 30, sort: 'price:desc', q: undefined });
  assert.deepEqual(page, { data: [{ id: 'prod_1' }], pagination });
  assert.equal(calls[0].url, 'http://store.test/api/products?price_max=30&sort=price%3Adesc');
});

test('iterate() walks every page', async () => {
  const answer = (url) => {
    const page = Number(new URL(url).searchParams.get('page'));
    return json(200, { success: true, data: [{ id: `p${page}` }], pagination: { page, limit: 1, total: 3, totalPages: 3, hasNext: page < 3, hasPrev: page > 1 } });
  };
  const { client } = fake([answer]);
  const ids = [];
  for await (const page of client.products.iterate({ limit: 1 })) ids.push(...page.data.map((p) => p.id));
  assert.deepEqual(ids, ['p1', 'p2', 'p3']);
});

test('an error answer is the subclass for its code, with status, details and request id', async () => {
  const details = [{ field: 'name', code: 'too_small', message: 'name must not be empty' }];
  const { client } = fake([json(422, { success: false, error: { code: 'VALIDATION_ERROR', message: 'name must not be empty', details } })]);
  await assert.rejects(client.products.create({ name: '', price: 1 }), (error) => {
    assert.ok(error instanceof ValidationError && error instanceof StoreApiError);
    assert.equal(error.code, 'VALIDATION_ERROR');
    assert.equal(error.status, 422);
    assert.deepEqual(error.details, details);
    assert.equal(error.requestId, 'req_1');
    return true;
  });
  const notFound = fake([json(404, { success: false, error: { code: 'NOT_FOUND', message: 'No', details: [] } })]);
  await assert.rejects(notFound.client.products.get('prod_nope'), NotFoundError);
  const conflict = fake([json(409, { success: false, error: { code: 'CONFLICT', message: 'Taken', details: [] } })]);
  await assert.rejects(conflict.client.categories.create({ name: 'x' }), ConflictError);
  const proxy = fake([new Response('Bad gateway', { status: 502 })], { maxRetries: 0 });
  await assert.rejects(proxy.client.products.list(), (error) => error instanceof InternalError && error.status === 502);
});

test('details is always a list of { field?, code, message }, whatever shape an older server sent', async () => {
  const detailsFrom = async (details) => {
    const { client } = fake([json(400, { success: false, error: { code: 'INVALID_REQUEST', message: 'Bad', details } })]);
    return client.products.list().catch((error) => error.details);
  };
  assert.deepEqual(await detailsFrom(null), []);
  assert.deepEqual(await detailsFrom(undefined), []);
  assert.deepEqual(await detailsFrom('limit'), []);
  assert.deepEqual(await detailsFrom([{ field: 'name', message: 'Required' }, 'junk']), [{ field: 'name', code: 'invalid_value', message: 'Required' }]);
  assert.deepEqual(await detailsFrom([{ code: 'conflict', message: 'busy' }]), [{ code: 'conflict', message: 'busy' }]);
  const proxy = fake([new Response('Bad gateway', { status: 502 })], { maxRetries: 0 });
  assert.deepEqual(await proxy.client.products.list().catch((error) => error.details), []);
});

test('the 2026-11-20 details object { field, issue, code?, message? } is read as a list of one entry', async () => {
  const published = {
    field: 'limit',
    issue: 'must be a whole number from 1 to 100',
    code: 'too_big',
    message: 'limit must be a whole number from 1 to 100',
  };
  const { client } = fake([json(400, { success: false, error: { code: 'INVALID_REQUEST', message: "Invalid value for query parameter 'limit'", details: published } })]);
  await assert.rejects(client.products.list({ limit: 100000 }), (error) => {
    assert.ok(error instanceof InvalidRequestError);
    assert.deepEqual(error.details, [{ field: 'limit', code: 'too_big', message: 'limit must be a whole number from 1 to 100' }]);
    return true;
  });
  const detailsFrom = async (details) => {
    const { client } = fake([json(400, { success: false, error: { code: 'INVALID_REQUEST', message: 'Bad', details } })]);
    return client.products.list().catch((error) => error.details);
  };
  // Without code and message (as the published specification shows it): invalid_value, and "<field> <issue>".
  assert.deepEqual(await detailsFrom({ field: 'Store-Version', issue: 'is not a version of this API' }), [
    { field: 'Store-Version', code: 'invalid_value', message: 'Store-Version is not a version of this API' },
  ]);
  assert.deepEqual(await detailsFrom({ issue: 'is too large' }), [{ code: 'invalid_value', message: 'is too large' }]);
  assert.deepEqual(await detailsFrom({ field: 'limit' }), [], 'nothing to say: no entry');
});

test('sends Store-Version: STORE_VERSION, the version it was generated for, unless told another', async () => {
  assert.match(STORE_VERSION, /^\d{4}-\d{2}-\d{2}$/);
  const ok = () => json(200, { success: true, data: { id: 'prod_1' } });
  const generated = fake([ok]);
  await generated.client.products.get('prod_1');
  assert.equal(generated.calls[0].headers['Store-Version'], STORE_VERSION);
  assert.equal(generated.client.storeVersion, STORE_VERSION);

  const older = fake([ok], { storeVersion: '2026-11-20' });
  await older.client.products.get('prod_1');
  await older.client.with({ buyerIp: '203.0.113.7' }).products.get('prod_1');
  assert.deepEqual(older.calls.map((c) => c.headers['Store-Version']), ['2026-11-20', '2026-11-20'], 'with() keeps it');
  assert.equal(older.client.storeVersion, '2026-11-20');

  // A Store-Version header, in any case, wins over the option, and is sent once.
  const header = fake([ok], { storeVersion: '2026-11-20' });
  await header.client.products.get('prod_1', {}, { headers: { 'store-version': '2026-11-28' } });
  assert.equal(header.calls[0].headers['store-version'], '2026-11-28');
  assert.equal(header.calls[0].headers['Store-Version'], undefined);
});

test('a 429 is retried after Retry-After; a Retry-After beyond maxRetryWaitMs throws at once', async () => {
  const limited = json(429, { success: false, error: { code: 'RATE_LIMITED', message: 'Slow down', details: [] } }, { 'Retry-After': '1' });
  const retries = [];
  const { client, calls } = fake([limited, json(200, { success: true, data: { id: 'x' } })], { onRetry: (i) => retries.push(i) });
  const started = Date.now();
  await client.products.get('x');
  assert.equal(calls.length, 2);
  assert.ok(Date.now() - started >= 950, 'waited the Retry-After second');
  assert.equal(client.stats.retries, 1);
  assert.equal(retries[0].status, 429);

  const long = json(429, { success: false, error: { code: 'RATE_LIMITED', message: 'Slow down', details: [] } }, { 'Retry-After': '3600' });
  const impatient = fake([long], { maxRetryWaitMs: 5000 });
  await assert.rejects(impatient.client.products.list(), (error) => error instanceof RateLimitedError && error.retryAfter === 3600);
  assert.equal(impatient.calls.length, 1);
});

test('5xx and network errors are retried for GET and keyed POSTs, never for plain POST or PATCH', async () => {
  const down = json(503, { success: false, error: { code: 'INTERNAL_ERROR', message: 'Down', details: [] } });
  const ok = json(200, { success: true, data: { id: 'ord_1' } });
  const get = fake([down, new TypeError('fetch failed'), ok]);
  assert.deepEqual(await get.client.orders.get('ord_1'), { id: 'ord_1' });
  assert.equal(get.calls.length, 3);

  const keyed = fake([down, ok]);
  await keyed.client.carts.checkout('cart_1', {});
  assert.equal(keyed.calls.length, 2);
  assert.ok(keyed.calls[0].headers['Idempotency-Key'], 'an idempotency key is sent');
  assert.equal(keyed.calls[0].headers['Idempotency-Key'], keyed.calls[1].headers['Idempotency-Key'], 'the retry repeats the key');

  const plain = fake([down, ok]);
  await assert.rejects(plain.client.products.create({ name: 'x', price: 1 }), InternalError);
  assert.equal(plain.calls.length, 1);

  const offline = fake([new TypeError('fetch failed')], { maxRetries: 1 });
  await assert.rejects(offline.client.products.list(), StoreConnectionError);
  assert.equal(offline.calls.length, 2);
});

test('the caller\'s idempotency key, cart token and user token are sent', async () => {
  const { client, calls } = fake([json(200, { success: true, data: { id: 'ord_1' } })]);
  client.setCartToken('ct_1').setToken('jwt_1');
  await client.carts.checkout('cart_1', { email: 'a@example.com' }, { idempotencyKey: 'k-1' });
  assert.equal(calls[0].headers['Idempotency-Key'], 'k-1');
  assert.equal(calls[0].headers['X-Cart-Token'], 'ct_1');
  assert.equal(calls[0].headers.Authorization, 'Bearer jwt_1');
  assert.equal(calls[0].headers['Content-Type'], 'application/json');
  assert.equal(calls[0].body, '{"email":"a@example.com"}');
  await client.products.list();
  assert.equal(calls[1].headers['X-Cart-Token'], undefined, 'the cart token goes only to cart operations');
});

test('credential precedence: call token > user token > API key > publishable key', async () => {
  const ok = json(200, { success: true, data: { id: 'x' } });
  const { client, calls } = fake([ok], { apiKey: undefined, publishableKey: 'pk_shop' });
  const sent = () => calls.at(-1).headers.Authorization;
  await client.products.get('x');
  assert.equal(sent(), 'Bearer pk_shop', 'a client with only a publishable key sends it');
  client.setToken('jwt_shopper');
  await client.products.get('x');
  assert.equal(sent(), 'Bearer jwt_shopper', 'a signed-in shopper sends its token instead');
  await client.products.get('x', {}, { token: 'jwt_call' });
  assert.equal(sent(), 'Bearer jwt_call', 'a call\'s token wins over the client\'s');
  client.setToken(null);
  await client.products.get('x');
  assert.equal(sent(), 'Bearer pk_shop', 'signing out falls back to the publishable key');
  client.setApiKey('sk_server');
  await client.products.get('x');
  assert.equal(sent(), 'Bearer sk_server', 'an API key wins over the publishable key');
  client.setApiKey(null).setPublishableKey(null);
  await client.products.get('x');
  assert.equal(sent(), undefined, 'no credential at all: anonymous');
  const other = fake([ok], { apiKey: undefined, publishableKey: 'pk_shop' });
  await other.client.with({ maxRetries: 0 }).products.get('x');
  assert.equal(other.calls[0].headers.Authorization, 'Bearer pk_shop', 'with() keeps the publishable key');
});

test('buyerIp is sent as X-Buyer-IP on every request, and a call\'s buyerIp overrides it', async () => {
  const ok = json(200, { success: true, data: { id: 'x' } });
  const { client, calls } = fake([ok], { buyerIp: '203.0.113.7' });
  await client.products.get('x');
  await client.carts.create({});
  await client.products.get('x', {}, { buyerIp: '2001:db8::1' });
  await client.request('GET', '/api/products', { buyerIp: '198.51.100.2' });
  await client.with({ buyerIp: '198.51.100.3' }).products.get('x');
  client.setBuyerIp(null);
  await client.products.get('x');
  assert.deepEqual(calls.map((c) => c.headers['X-Buyer-IP']), ['203.0.113.7', '203.0.113.7', '2001:db8::1', '198.51.100.2', '198.51.100.3', undefined]);
  assert.equal(calls[0].headers.Authorization, 'Bearer sk_test', 'beside the secret key');
  const none = fake([ok]);
  await none.client.products.get('x');
  assert.equal('X-Buyer-IP' in none.calls[0].headers, false, 'not sent without buyerIp');
});

// Typed events: constructEvent verifies and returns the body; webhookHandler dispatches on its kind.
const { createHmac } = await import('node:crypto');
const { constructEvent, isNewerEvent, webhookHandler, WebhookVerificationError, STORE_EVENT_TYPES } = await import('@store-api/client');
const SECRET = 'whsec_dGVzdC1zZWNyZXQtZm9yLXR5cGVkLWV2ZW50cw==';
const placedBody = JSON.stringify({ id: 'evt_1', event: 'order.placed', data: { orderId: 'ord_1', orderNumber: 1001, customerId: null, email: 'a@example.com', total: 42.5, currency: 'EUR', status: 'pending' }, timestamp: '2026-01-02T03:04:05.000Z' });
const signedHeaders = (body, secret = SECRET) => ({ 'X-Store-Signature': createHmac('sha256', secret).update(body).digest('hex'), 'X-Store-Delivery': 'whd_1', 'X-Store-Event': JSON.parse(body).event });
const delivery = (body, headers = signedHeaders(body)) => new Request('http://receiver.test/webhooks', { method: 'POST', body, headers });

test('constructEvent returns a verified body, with either of two secrets, and throws on a bad signature', async () => {
  const event = await constructEvent({ body: placedBody, headers: signedHeaders(placedBody), secret: SECRET });
  assert.equal(event.event, 'order.placed');
  assert.equal(event.data.orderNumber, 1001);
  const rotated = await constructEvent({ body: new TextEncoder().encode(placedBody), headers: signedHeaders(placedBody), secrets: ['whsec_bmV3', SECRET] });
  assert.equal(rotated.id, 'evt_1');
  await assert.rejects(constructEvent({ body: placedBody, headers: signedHeaders(placedBody, 'whsec_b3RoZXI='), secret: SECRET }), WebhookVerificationError);
  await assert.rejects(constructEvent({ body: `${placedBody} `, headers: signedHeaders(placedBody), secret: SECRET }), /invalid signature/);
  assert.ok(STORE_EVENT_TYPES.includes('order.placed') && STORE_EVENT_TYPES.includes('ping'));
});

test('webhookHandler: 400 for a bad signature, the kind\'s handler then 200, 200 for kinds without one, 500 when a handler throws', async () => {
  const seen = [];
  const handler = webhookHandler({
    secret: SECRET,
    on: {
      'order.placed': (event) => seen.push(`placed ${event.data.orderNumber}`),
      'payment.failed': () => {
        throw new Error('database down');
      },
    },
  });
  assert.equal((await handler(delivery(placedBody, signedHeaders(placedBody, 'whsec_b3RoZXI=')))).status, 400);
  assert.deepEqual(seen, []);
  assert.equal((await handler(delivery(placedBody))).status, 200);
  assert.deepEqual(seen, ['placed 1001']);
  const later = JSON.stringify({ id: 'evt_2', event: 'order.teleported', data: {}, timestamp: '2026-01-02T03:04:05.000Z' });
  assert.equal((await handler(delivery(later))).status, 200);
  const failed = JSON.stringify({ id: 'evt_3', event: 'payment.failed', data: {}, timestamp: '2026-01-02T03:04:05.000Z' });
  const answer = await handler(delivery(failed));
  assert.equal(answer.status, 500);
  assert.doesNotMatch(await answer.text(), /database down/);
  assert.deepEqual(seen, ['placed 1001']);
});

test('isNewerEvent keeps events about a resource in the order the store wrote them', () => {
  // order.updated #3 arrives before #2: #2 is then older news.
  let last = null;
  const applied = [];
  for (const event of [{ sequence: 1 }, { sequence: 3 }, { sequence: 2 }, { sequence: 3 }, { sequence: null }]) {
    if (!isNewerEvent(event, last)) continue;
    applied.push(event.sequence);
    if (event.sequence !== null) last = event.sequence;
  }
  assert.deepEqual(applied, [1, 3, null]);
});
