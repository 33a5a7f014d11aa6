import { describe, expect, it } from 'vitest';
import { DETAIL_CODES } from '../../src/lib/errors';
import { LATEST_VERSION } from '../../src/versions/versions';
import { adminKey, api as anyVersionApi, createBrand, uid } from '../helpers';

// The newest shape, which handlers produce; test/http/store-versions.test.ts checks every version's.
const api: typeof anyVersionApi = (path, init = {}) =>
  anyVersionApi(path, { ...init, headers: { 'Store-Version': LATEST_VERSION, ...Object.fromEntries(new Headers(init.headers)) } });

/** Every error answer's `details` is a list whose items carry a documented code and a message; a field's message starts with it. */
function expectDetails(res: { status: number; body: any }, status: number) {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  const { details } = res.body.error;
  expect(Array.isArray(details), JSON.stringify(details)).toBe(true);
  for (const detail of details) {
    expect(Object.keys(DETAIL_CODES)).toContain(detail.code);
    expect(detail.message).toEqual(expect.any(String));
    if (detail.field !== undefined) expect(detail.message.startsWith(detail.field)).toBe(true);
  }
  return details as { field?: string; code: string; message: string }[];
}

describe('error details on every status', () => {
  it('is a list of { field?, code, message } on 400, 401, 403, 404, 409, 413, 415 and 422', async () => {
    const key = await adminKey();
    const readOnly = await api('/api/settings/api-keys', { method: 'POST', key, json: { name: 'reader', permissions: ['products:read'] } });
    expect(readOnly.status).toBe(201);
    const brand = await createBrand(key);

    expect(expectDetails(await api('/api/products?limit=abc'), 400)).toEqual([{ field: 'limit', code: expect.any(String), message: expect.stringMatching(/^limit /) }]);
    expect(expectDetails(await api('/api/products?colour=red'), 400)).toEqual([{ field: 'colour', code: 'unknown_parameter', message: 'colour is not a known query parameter' }]);
    expect(expectDetails(await api('/api/products', { key: `sk_${'Z'.repeat(40)}` }), 401)).toEqual([]);
    expect(expectDetails(await api('/api/products', { method: 'POST', key: readOnly.body.data.key, json: { name: 'x', price: 1 } }), 403)).toEqual([]);
    expect(expectDetails(await api('/api/products/prod_nope'), 404)).toEqual([]);
    expect(expectDetails(await api('/api/nowhere'), 404)).toEqual([]);
    expect(expectDetails(await api('/api/brands', { method: 'POST', key, json: { name: `Again ${uid()}`, slug: brand.slug } }), 409)).toEqual([
      { field: 'slug', code: 'already_exists', message: expect.stringMatching(/^slug /) },
    ]);
    const big = JSON.stringify({ name: 'x', description: 'a'.repeat(70_000) });
    expect(expectDetails(await api('/api/brands', { method: 'POST', key, headers: { 'Content-Type': 'application/json' }, body: big }), 413)).toEqual([
      { field: 'body', code: 'too_big', message: expect.stringMatching(/^body is larger than/) },
    ]);
    expectDetails(await api('/api/brands', { method: 'POST', key, headers: { 'Content-Type': 'text/plain' }, body: 'x' }), 415);
    const invalid = expectDetails(await api('/api/products', { method: 'POST', key, json: { name: '', price: -1, colour: 'red' } }), 422);
    expect(invalid).toEqual([
      { field: 'name', code: 'too_small', message: 'name must not be empty' },
      { field: 'price', code: 'too_small', message: 'price must be 0 or more' },
      { field: 'colour', code: 'unknown_field', message: 'colour is not a known field' },
    ]);
  });

  it("says the one invalid field's problem at the top, or which fields are invalid", async () => {
    const key = await adminKey();
    const one = await api('/api/products', { method: 'POST', key, json: { name: 'Mug', price: -1 } });
    expect(one.body.error.message).toBe('price must be 0 or more');
    const three = await api('/api/products', { method: 'POST', key, json: { name: '', price: 'ten', status: 'sold' } });
    expect(three.body.error.message).toBe('3 fields are invalid: name, price, status');
    expect(three.body.error.details).toContainEqual({ field: 'price', code: 'invalid_type', message: 'price must be a number' });
    expect(three.body.error.details).toContainEqual({ field: 'status', code: 'invalid_value', message: expect.stringMatching(/^status must be one of: draft, /) });
  });
});
