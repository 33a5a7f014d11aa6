import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { idempotencyKeys, orders, productVariants } from '../../src/db/schema';
import type { AppEnv } from '../../src/env';
import { ApiError } from '../../src/lib/errors';
import type { Principal } from '../../src/lib/access';
import { idempotent } from '../../src/middleware/idempotency';
import { policyOf } from '../../src/lib/route-policy';
import { adminKey, api, createProduct, db, expectError, insertUser, uid } from '../helpers';

// Idempotency-Key: through POST /api/orders and its cancel action, then the middleware alone for
// what the orders routes cannot show (a 5xx, a request still running, an expired key).

const stockOf = async (variantId: string) => (await db().select().from(productVariants).where(eq(productVariants.id, variantId)))[0]!.stock;
const ordersFor = async (email: string) => db().select().from(orders).where(eq(orders.email, email));

async function setup(stock = 10) {
  const key = await adminKey();
  const product = await createProduct(key, { price: 10, stock });
  return { key, variantId: product.variants[0].id as string };
}
const postOrder = (key: string, idempotencyKey: string, json: unknown, path = '/api/orders') =>
  api(path, { method: 'POST', key, json, headers: { 'Idempotency-Key': idempotencyKey } });

describe('Idempotency-Key on POST /api/orders', () => {
  it('answers a retry with the first response, places one order and takes the stock once', async () => {
    const { key, variantId } = await setup();
    const email = `retry-${uid()}@example.test`;
    const body = { email, lines: [{ variantId, quantity: 2 }] };
    const idem = crypto.randomUUID();
    const first = await postOrder(key, idem, body);
    expect(first.status).toBe(201);
    expect(first.headers.get('Idempotent-Replayed')).toBeNull();
    const again = await postOrder(key, idem, body);
    expect(again.status).toBe(201);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.headers.get('Location')).toBe(first.headers.get('Location'));
    expect(again.headers.get('X-Request-Id')).toEqual(expect.any(String));
    expect(again.body).toEqual(first.body);
    // The versioned alias is the same route, so the same request.
    const aliased = await postOrder(key, idem, body, '/api/v1/orders');
    expect(aliased.status).toBe(201);
    expect(aliased.body.data.id).toBe(first.body.data.id);
    expect(await ordersFor(email)).toHaveLength(1);
    expect(await stockOf(variantId)).toBe(8);
  });

  it('is 409 for the same key with a different body, and places nothing for it', async () => {
    const { key, variantId } = await setup();
    const idem = crypto.randomUUID();
    const email = `first-${uid()}@example.test`;
    expect((await postOrder(key, idem, { email, lines: [{ variantId, quantity: 1 }] })).status).toBe(201);
    const other = `second-${uid()}@example.test`;
    const res = await postOrder(key, idem, { email: other, lines: [{ variantId, quantity: 1 }] });
    expectError(res, 409, 'CONFLICT');
    expect(res.body.error.details).toEqual([{ field: 'Idempotency-Key', code: 'conflict', message: expect.stringMatching(/^Idempotency-Key.*different request/) }]);
    expect(await ordersFor(other)).toHaveLength(0);
    expect(await stockOf(variantId)).toBe(9);
  });

  it('keeps keys per credential: another key may use the same value', async () => {
    const { key, variantId } = await setup();
    const otherKey = await adminKey();
    const idem = crypto.randomUUID();
    const body = { email: `shared-${uid()}@example.test`, lines: [{ variantId, quantity: 1 }] };
    const a = await postOrder(key, idem, body);
    const b = await postOrder(otherKey, idem, body);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.data.id).not.toBe(b.body.data.id);
    expect(b.headers.get('Idempotent-Replayed')).toBeNull();
  });

  it('places one order for concurrent requests with one key', async () => {
    const { key, variantId } = await setup();
    const email = `burst-${uid()}@example.test`;
    const idem = crypto.randomUUID();
    const results = await Promise.all(Array.from({ length: 5 }, () => postOrder(key, idem, { email, lines: [{ variantId, quantity: 1 }] })));
    for (const r of results) {
      if (r.status === 409) expect(r.body.error.message).toMatch(/in progress/);
      else expect(r.status).toBe(201);
    }
    expect(await ordersFor(email)).toHaveLength(1);
    expect(await stockOf(variantId)).toBe(9);
  });

  it('replays a 4xx answer too', async () => {
    const { key } = await setup();
    const idem = crypto.randomUUID();
    const first = await postOrder(key, idem, { lines: [] });
    expectError(first, 422, 'VALIDATION_ERROR');
    const again = await postOrder(key, idem, { lines: [] });
    expectError(again, 422, 'VALIDATION_ERROR');
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
  });

  it('refuses a key that is empty, longer than 255 characters or not printable (400)', async () => {
    const { key, variantId } = await setup();
    const body = { email: `bad-key-${uid()}@example.test`, lines: [{ variantId, quantity: 1 }] };
    for (const bad of ['', 'k'.repeat(256), 'tab\there']) {
      const res = await postOrder(key, bad, body);
      expectError(res, 400, 'INVALID_REQUEST');
      expect(res.body.error.details.field).toBe('Idempotency-Key');
    }
    expect((await postOrder(key, 'k'.repeat(255), body)).status).toBe(201);
    expect(await ordersFor(body.email)).toHaveLength(1);
  });
});

describe('Idempotency-Key on POST /api/orders/{id}/cancel', () => {
  it('replays the cancellation instead of answering the retry with 409', async () => {
    const { key, variantId } = await setup();
    const placed = await postOrder(key, crypto.randomUUID(), { email: `c-${uid()}@example.test`, lines: [{ variantId, quantity: 3 }] });
    const id = placed.body.data.id;
    const idem = crypto.randomUUID();
    const cancel = () => api(`/api/orders/${id}/cancel`, { method: 'POST', key, headers: { 'Idempotency-Key': idem } });
    const first = await cancel();
    expect(first.status).toBe(200);
    const again = await cancel();
    expect(again.status).toBe(200);
    expect(again.headers.get('Idempotent-Replayed')).toBe('true');
    expect(again.body.data.status).toBe('cancelled');
    expect(await stockOf(variantId)).toBe(10);
    expectError(await api(`/api/orders/${id}/cancel`, { method: 'POST', key }), 409, 'CONFLICT');
  });
});

describe('Idempotency-Key on a guest checkout (POST /api/carts/{id}/checkout)', () => {
  const IP = '198.51.100.77';
  async function guestCart() {
    const { variantId } = await setup();
    const { id, token } = (await api('/api/carts', { method: 'POST', json: { email: `guest-${uid()}@example.test` } })).body.data;
    const line = await api(`/api/carts/${id}/lines`, { method: 'POST', json: { variantId, quantity: 1 }, headers: { 'X-Cart-Token': token } });
    expect(line.status).toBe(200);
    return { id: id as string, token: token as string };
  }
  const checkout = (cartId: string, idem: string, headers: Record<string, string> = {}, key?: string) =>
    api(`/api/carts/${cartId}/checkout`, { method: 'POST', key, json: {}, headers: { 'Idempotency-Key': idem, 'CF-Connecting-IP': IP, ...headers } });

  it('replays the order only to a caller holding the cart token: without it, the route answers as to anyone else', async () => {
    const cart = await guestCart();
    const idem = crypto.randomUUID();
    const first = await checkout(cart.id, idem, { 'X-Cart-Token': cart.token });
    expect(first.status, JSON.stringify(first.body)).toBe(201);

    const withoutToken = await checkout(cart.id, idem);
    expectError(withoutToken, 404, 'NOT_FOUND');
    expect(withoutToken.headers.get('Idempotent-Replayed')).toBeNull();
    expect(JSON.stringify(withoutToken.body)).not.toContain(first.body.data.id);

    const other = await guestCart();
    const wrongToken = await checkout(cart.id, idem, { 'X-Cart-Token': other.token });
    expectError(wrongToken, 404, 'NOT_FOUND');
    expect(wrongToken.headers.get('Idempotent-Replayed')).toBeNull();

    const withToken = await checkout(cart.id, idem, { 'X-Cart-Token': cart.token });
    expect(withToken.status).toBe(201);
    expect(withToken.headers.get('Idempotent-Replayed')).toBe('true');
    expect(withToken.headers.get('Location')).toBe(first.headers.get('Location'));
    expect(withToken.body).toEqual(first.body);
    expect(await db().select().from(orders).where(eq(orders.cartId, cart.id))).toHaveLength(1);
  });

  it("holds for a signed-in caller too: its JWT alone does not replay a guest cart's checkout", async () => {
    const cart = await guestCart();
    const { token: jwt } = await insertUser();
    const idem = crypto.randomUUID();
    const first = await checkout(cart.id, idem, { 'X-Cart-Token': cart.token }, jwt);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const withoutToken = await checkout(cart.id, idem, {}, jwt);
    expectError(withoutToken, 404, 'NOT_FOUND');
    expect(withoutToken.headers.get('Idempotent-Replayed')).toBeNull();
    const withToken = await checkout(cart.id, idem, { 'X-Cart-Token': cart.token }, jwt);
    expect(withToken.status).toBe(201);
    expect(withToken.body.data.id).toBe(first.body.data.id);
  });
});

describe('the idempotent() middleware', () => {
  /** A bare app with the middleware on one route whose handler the test controls, its policy's scope `scope`. */
  function harness(handler: (c: any) => Response | Promise<Response>, principal: Principal = { kind: 'anonymous' }, scope: string[] = []) {
    const app = new Hono<AppEnv>();
    app.use('*', async (c, next) => {
      c.set('db', db());
      c.set('principal', principal);
      c.set('policy', policyOf({ idempotency: { scope } }));
      await next();
    });
    app.onError((error, c) => (error instanceof ApiError ? c.json(error.toBody(), error.status) : c.json({ error: String(error) }, 500)));
    app.post('/things', idempotent(), handler);
    return (idem: string, body = '{}', ip = '203.0.113.7', headers: Record<string, string> = {}) =>
      app.request('/things', { method: 'POST', body, headers: { 'Idempotency-Key': idem, 'Content-Type': 'application/json', 'CF-Connecting-IP': ip, ...headers } }, env);
  }

  it('lets go of the key after a 5xx or a thrown error, so a retry runs again', async () => {
    let calls = 0;
    const send = harness((c) => {
      calls += 1;
      if (calls === 1) return c.json({ failed: true }, 503);
      if (calls === 2) throw new Error('boom');
      return c.json({ calls }, 201);
    });
    const idem = `k-${uid()}`;
    expect((await send(idem)).status).toBe(503);
    expect((await send(idem)).status).toBe(500);
    const third = await send(idem);
    expect(third.status).toBe(201);
    expect(await third.json()).toEqual({ calls: 3 });
    const fourth = await send(idem);
    expect(fourth.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await fourth.json()).toEqual({ calls: 3 });
    expect(calls).toBe(3);
  });

  it('is 409 for a repeat while the first request is still running', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const send = harness(async (c) => {
      await gate;
      return c.json({ done: true }, 200);
    });
    const idem = `k-${uid()}`;
    const first = send(idem);
    await new Promise((r) => setTimeout(r, 50));
    const second = await send(idem);
    expect(second.status).toBe(409);
    expect(((await second.json()) as any).error.message).toMatch(/in progress/);
    release();
    expect((await first).status).toBe(200);
  });

  it('scopes anonymous callers by client IP, and ignores (then overwrites) a key older than 24 hours', async () => {
    let calls = 0;
    const send = harness((c) => c.json({ calls: ++calls }, 200));
    const idem = `k-${uid()}`;
    await send(idem, '{"a":1}', '198.51.100.1');
    const otherIp = await send(idem, '{"a":2}', '198.51.100.2');
    expect(otherIp.status).toBe(200);
    expect(calls).toBe(2);
    const old = new Date(Date.now() - 25 * 60 * 60 * 1000).toISOString();
    await db().update(idempotencyKeys).set({ createdAt: old }).where(eq(idempotencyKeys.key, idem));
    const after = await send(idem, '{"a":3}', '198.51.100.1');
    expect(after.status).toBe(200);
    expect(after.headers.get('Idempotent-Replayed')).toBeNull();
    expect(calls).toBe(3);
    const [row] = await db().select().from(idempotencyKeys).where(eq(idempotencyKeys.scope, 'anon:198.51.100.1'));
    expect(row).toMatchObject({ key: idem, responseStatus: 200 });
    expect(row!.createdAt > old).toBe(true);
  });

  it('scopes keys by the X-Cart-Token a request carries where the route policy lists it, for credentialed callers too, so a replay needs the same token', async () => {
    for (const principal of [{ kind: 'anonymous' } as const, { kind: 'user', id: `user_${uid()}`, role: 'customer', permissions: [], vendorId: null } as const]) {
      let calls = 0;
      const send = harness((c) => c.json({ calls: ++calls }, 201), principal, ['X-Cart-Token']);
      const idem = `k-${uid()}`;
      const tokenA = { 'X-Cart-Token': `ct_${'a'.repeat(40)}` };
      expect(await (await send(idem, '{}', '198.51.100.5', tokenA)).json()).toEqual({ calls: 1 });
      const bare = await send(idem, '{}', '198.51.100.5');
      expect(bare.headers.get('Idempotent-Replayed')).toBeNull();
      expect(await bare.json()).toEqual({ calls: 2 });
      const other = await send(idem, '{}', '198.51.100.5', { 'X-Cart-Token': `ct_${'b'.repeat(40)}` });
      expect(await other.json()).toEqual({ calls: 3 });
      const again = await send(idem, '{}', '198.51.100.5', tokenA);
      expect(again.headers.get('Idempotent-Replayed')).toBe('true');
      expect(await again.json()).toEqual({ calls: 1 });
      const stored = await db().select().from(idempotencyKeys).where(eq(idempotencyKeys.key, idem));
      // Only a hash of the token is kept, never the token itself.
      expect(stored.map((r) => r.scope).join()).not.toContain('a'.repeat(40));
    }
  });

  it('leaves headers out of the scope where the route policy does not list them', async () => {
    let calls = 0;
    const send = harness((c) => c.json({ calls: ++calls }, 201));
    const idem = `k-${uid()}`;
    expect(await (await send(idem, '{}', '198.51.100.6', { 'X-Cart-Token': `ct_${'a'.repeat(40)}` })).json()).toEqual({ calls: 1 });
    const bare = await send(idem, '{}', '198.51.100.6');
    expect(bare.headers.get('Idempotent-Replayed')).toBe('true');
    expect(await bare.json()).toEqual({ calls: 1 });
  });
});
