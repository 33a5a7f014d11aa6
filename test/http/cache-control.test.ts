import { beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_CACHE_CONTROL } from '../../src/middleware/catalogue-cache';
import { adminKey, type ApiResponse, api, createProduct, insertUser } from '../helpers';
import { deliveredShoes, ok } from '../commerce/return-fixtures';

// Every /api answer is `Cache-Control: private, no-store` unless it says otherwise
// (src/middleware/cache-control.ts): shoppers' and credentialed answers, and errors. Public
// catalogue reads keep their public caching.

const PRIVATE = 'private, no-store';
const cacheControl = (res: ApiResponse) => res.headers.get('Cache-Control');

let key: string;
beforeAll(async () => {
  key = await adminKey();
});

describe('Cache-Control on /api answers', () => {
  it("a guest's cart, read with only X-Cart-Token, and its checkout are private, no-store", async () => {
    const variantId = (await createProduct(key, { price: 7, stock: 10 })).variants[0].id;
    const cart = (await api('/api/carts', { method: 'POST', json: { email: 'cache@example.test' } })).body.data;
    const headers = { 'X-Cart-Token': cart.token };
    expect(cacheControl(await api(`/api/carts/${cart.id}/lines`, { method: 'POST', headers, json: { variantId, quantity: 1 } }))).toBe(PRIVATE);

    const read = await api(`/api/carts/${cart.id}`, { headers });
    expect(read.status).toBe(200);
    expect(cacheControl(read)).toBe(PRIVATE);

    const checkout = await api(`/api/carts/${cart.id}/checkout`, { method: 'POST', headers });
    expect(checkout.status, JSON.stringify(checkout.body)).toBe(201);
    expect(cacheControl(checkout)).toBe(PRIVATE);
  });

  it("a customer's order, profile and return, a sign-in and a gift card read with a key are private, no-store", async () => {
    const shoes = await deliveredShoes();
    const order = await api(`/api/orders/${shoes.order.id}`, { key: shoes.token });
    expect(order.status).toBe(200);
    expect(cacheControl(order)).toBe(PRIVATE);

    const me = await api('/api/customers/me', { key: shoes.token });
    expect(me.status).toBe(200);
    expect(cacheControl(me)).toBe(PRIVATE);

    const asked = await ok(`/api/orders/${shoes.order.id}/returns`, {
      method: 'POST',
      key: shoes.token,
      json: { lines: [{ orderLineId: shoes.line.id, quantity: 1, reason: 'too_small' }] },
    });
    const returned = await api(`/api/returns/${asked.id}`, { key: shoes.token });
    expect(returned.status).toBe(200);
    expect(cacheControl(returned)).toBe(PRIVATE);

    const { user, password } = await insertUser();
    const login = await api('/api/auth/login', { method: 'POST', json: { email: user.email, password } });
    expect(login.status).toBe(200);
    expect(login.body.data.token).toEqual(expect.any(String));
    expect(cacheControl(login)).toBe(PRIVATE);

    const card = (await api('/api/gift-cards', { method: 'POST', key, json: { amount: 5, currency: 'USD' } })).body.data;
    const got = await api(`/api/gift-cards/${card.id}`, { key });
    expect(got.status).toBe(200);
    expect(cacheControl(got)).toBe(PRIVATE);
  });

  it('errors are private, no-store too: 401, 403, 404 and a catalogue 404', async () => {
    const { token } = await insertUser();
    const answers = [
      await api('/api/orders', { key: 'sk_live_not_a_real_key' }),
      await api('/api/gift-cards', { key: token }),
      await api('/api/no-such-route'),
      await api('/api/products/prod_does_not_exist'),
    ];
    expect(answers.map((res) => res.status)).toEqual([401, 403, 404, 404]);
    for (const res of answers) expect(cacheControl(res)).toBe(PRIVATE);
  });

  it('a public catalogue list keeps its public caching; a credentialed one and a CSV export keep theirs', async () => {
    await createProduct(key, { price: 3, stock: 1 });
    const list = await api('/api/products?limit=5');
    expect(list.status).toBe(200);
    expect(cacheControl(list)).toBe(PUBLIC_CACHE_CONTROL);
    expect(list.headers.get('ETag')).toMatch(/^W\/"c/);
    const staff = await api('/api/products?limit=5', { key });
    expect(cacheControl(staff)).toBe(PRIVATE);
    const csv = await api('/api/products?format=csv&limit=5', { key });
    expect(csv.status).toBe(200);
    expect(cacheControl(csv)).toBe('no-store');
  });
});
