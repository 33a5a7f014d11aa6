import { beforeAll, describe, expect, it } from 'vitest';
import { adminKey, api, createProduct, expectError } from '../helpers';

let key: string;
beforeAll(async () => {
  key = await adminKey();
});

const JSON_HEADER = { 'Content-Type': 'application/json' };
/** A POST that says JSON and sends nothing (or only blanks), as many HTTP clients do. */
const emptyPost = (path: string, body?: string, extra: Record<string, string> = {}) => api(path, { method: 'POST', key, headers: { ...JSON_HEADER, ...extra }, body });

/** A guest cart with one line and an email, ready to check out. */
async function readyCart() {
  const variantId = (await createProduct(key, { price: 5, stock: 10 })).variants[0].id;
  const cart = (await api('/api/carts', { method: 'POST', json: { email: 'empty-body@example.test' } })).body.data;
  const line = await api(`/api/carts/${cart.id}/lines`, { method: 'POST', json: { variantId, quantity: 1 }, headers: { 'X-Cart-Token': cart.token } });
  expect(line.status).toBe(200);
  return cart as { id: string; token: string };
}

describe('an empty body with Content-Type: application/json is no body', () => {
  it('checks out a cart (optional body) as without the header', async () => {
    const cart = await readyCart();
    const res = await emptyPost(`/api/carts/${cart.id}/checkout`, undefined, { 'X-Cart-Token': cart.token });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.status).toBe('pending');
  });

  it('cancels an order (optional body), also with a blank body', async () => {
    const cart = await readyCart();
    const order = (await api(`/api/carts/${cart.id}/checkout`, { method: 'POST', headers: { 'X-Cart-Token': cart.token } })).body.data;
    const res = await emptyPost(`/api/orders/${order.id}/cancel`, ' \n');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.status).toBe('cancelled');
  });

  it('sends a webhook test ping (a body of no options)', async () => {
    const created = await api('/api/webhooks', { method: 'POST', key, json: { url: 'http://127.0.0.1:9/ping', events: ['*'] } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const res = await emptyPost(`/api/webhooks/${created.body.data.id}/test`, '');
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.data.event).toBe('ping');
  });

  it('is 422 naming the required fields where a body is required', async () => {
    for (const body of [undefined, '', '   ']) {
      const res = await emptyPost('/api/products', body);
      expectError(res, 422, 'VALIDATION_ERROR');
      expect(res.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['name', 'price']);
    }
  });

  it('still answers malformed JSON with 400', async () => {
    expectError(await emptyPost('/api/products', '{'), 400, 'INVALID_REQUEST');
  });
});
