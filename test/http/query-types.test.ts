import { beforeAll, describe, expect, it } from 'vitest';
import { adminKey, api, createProduct, expectError, uid } from '../helpers';

// Numeric and boolean query parameters are typed in the OpenAPI document (integer, number, boolean);
// the server reads them exactly as before: a number only in its plain decimal form, a boolean only as
// `true` or `false`, anything else 400 INVALID_REQUEST naming the parameter, never a 500.

let key: string;
beforeAll(async () => {
  key = await adminKey();
});

/** Asserts a 400 (or 422) in the error envelope whose details name `field`. */
function expectBadParameter(res: { status: number; body: any }, field: string) {
  expect([400, 422], JSON.stringify(res.body)).toContain(res.status);
  expect(res.body.success).toBe(false);
  expect(res.body.error.code).toBe(res.status === 400 ? 'INVALID_REQUEST' : 'VALIDATION_ERROR');
  expect(JSON.stringify(res.body.error.details)).toContain(field);
}

describe('price_min and price_max (number)', () => {
  it('filters as before: inclusive bounds in major units', async () => {
    const tag = uid();
    const made: Record<number, string> = {};
    for (const price of [10, 29.99, 30, 30.01, 45]) made[price] = (await createProduct(key, { name: `Typed ${tag} ${price}`, price })).id;
    const ids = async (query: string) => {
      const res = await api(`/api/products?q=${tag}&sort=price&fields=id,price&${query}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data.map((p: { id: string }) => p.id);
    };
    expect(await ids('price_max=30')).toEqual([made[10], made[29.99], made[30]]);
    expect(await ids('price_max=30.00')).toEqual([made[10], made[29.99], made[30]]);
    expect(await ids('price_min=30')).toEqual([made[30], made[30.01], made[45]]);
    expect(await ids('price_min=29.99&price_max=30.01')).toEqual([made[29.99], made[30], made[30.01]]);
    expect(await ids('price_min=0')).toHaveLength(5);
  });

  it.each(['abc', '', '1e2', '-1', ' 30', '30 ', '0x1e', '30.001', 'NaN', 'Infinity', '1000000000'])('refuses price_max=%j naming it', async (value) => {
    expectBadParameter(await api(`/api/products?price_max=${encodeURIComponent(value)}`), 'price_max');
  });

  it('refuses a repeated price_max', async () => {
    expectBadParameter(await api('/api/products?price_max=30&price_max=40'), 'price_max');
  });
});

describe('page and limit (integer)', () => {
  it.each([
    ['page', '1.5'],
    ['page', '0'],
    ['page', 'abc'],
    ['limit', '101'],
    ['limit', '1e1'],
    ['limit', ''],
  ])('refuses %s=%j naming it', async (name, value) => {
    expectBadParameter(await api(`/api/products?${name}=${encodeURIComponent(value)}`), name);
  });

  it('reads them as numbers', async () => {
    const res = await api('/api/products?page=2&limit=3');
    expect(res.status).toBe(200);
    expect(res.body.pagination).toMatchObject({ page: 2, limit: 3 });
  });
});

describe('active on coupons (boolean)', () => {
  it('returns only the matching coupons for active=true and active=false', async () => {
    const tag = uid().toUpperCase();
    const add = async (code: string, active: boolean) => {
      const res = await api('/api/coupons', { method: 'POST', key, json: { code, type: 'percentage', value: 5, active } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    };
    await add(`ON1${tag}`, true);
    await add(`ON2${tag}`, true);
    await add(`OFF${tag}`, false);
    const listed = async (query: string) => {
      const res = await api(`/api/coupons?q=${tag}&sort=code&fields=code,active&${query}`, { key });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data;
    };
    expect(await listed('active=true')).toEqual([
      { code: `ON1${tag}`, active: true },
      { code: `ON2${tag}`, active: true },
    ]);
    expect(await listed('active=false')).toEqual([{ code: `OFF${tag}`, active: false }]);
    expect(await listed('')).toHaveLength(3);
  });

  it.each(['maybe', '1', '0', 'yes', 'TRUE', 'False', ''])('refuses active=%j naming it', async (value) => {
    expectBadParameter(await api(`/api/coupons?active=${encodeURIComponent(value)}`, { key }), 'active');
  });

  it('refuses a boolean it cannot read on other lists too', async () => {
    expectBadParameter(await api('/api/webhooks?active=maybe', { key }), 'active');
    expectBadParameter(await api('/api/settings/currencies?enabled=maybe', { key }), 'enabled');
    expectBadParameter(await api('/api/inventory?low=maybe', { key }), 'low');
  });

  it('says what is wrong', async () => {
    const res = await api('/api/coupons?active=maybe', { key });
    expectError(res, 400, 'INVALID_REQUEST');
    expect(res.body.error.details).toEqual({ field: 'active', issue: 'must be true or false', code: 'invalid_type', message: 'active must be true or false' });
    const price = await api('/api/products?price_max=abc');
    expectError(price, 400, 'INVALID_REQUEST');
    expect(price.body.error.details).toEqual({
      field: 'price_max',
      issue: 'must be a non-negative amount with at most 2 decimals, like 19.99',
      code: 'invalid_type',
      message: 'price_max must be a non-negative amount with at most 2 decimals, like 19.99',
    });
  });
});
