import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { carts, currencies, promotions } from '../../src/db/schema';
import { couponPromotion } from './coupon-reference';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service';
import { adminKey, api, db, expectError, insertUser, uid } from '../helpers';

let key: string;
beforeAll(async () => {
  key = await adminKey();
});

/** A fresh three-letter code for each test (storage is shared by the tests of a file). */
let next = 0;
const freshCode = () => {
  next += 1;
  return `Q${String.fromCharCode(65 + Math.floor(next / 26))}${String.fromCharCode(65 + (next % 26))}`;
};
const addCurrency = (json: Record<string, unknown>, k = key) => api('/api/settings/currencies', { method: 'POST', key: k, json });
const patchCurrency = (code: string, json: unknown) => api(`/api/settings/currencies/${code}`, { method: 'PATCH', key, json });
const fieldsOf = (res: { body: any }) => res.body.error.details.map((d: { field: string }) => d.field).sort();

describe('POST /api/settings/currencies', () => {
  it('adds a currency: code upper-cased, rate kept as exact decimal text and shown as a number', async () => {
    const code = freshCode();
    const res = await addCurrency({ code: code.toLowerCase(), name: 'Test money', symbol: 'T$', minorUnits: 3, exchangeRate: 0.12345678 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toEqual({
      code,
      name: 'Test money',
      symbol: 'T$',
      minorUnits: 3,
      exchangeRate: 0.12345678,
      enabled: true,
      pricesIncludeTax: null,
      isDefault: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(res.headers.get('Location')).toBe(`/api/settings/currencies/${code}`);
    const [row] = await db().select().from(currencies).where(eq(currencies.code, code));
    expect(row!.exchangeRate).toBe('0.12345678');
  });

  it('refuses a duplicate code in any case with 409', async () => {
    const code = freshCode();
    expect((await addCurrency({ code, name: 'One', symbol: '1', exchangeRate: 2 })).status).toBe(201);
    expectError(await addCurrency({ code: code.toLowerCase(), name: 'Two', symbol: '2', exchangeRate: 2 }), 409, 'CONFLICT');
    expectError(await addCurrency({ code: 'usd', name: 'Dollar again', symbol: '$', exchangeRate: 1 }), 409, 'CONFLICT');
  });

  it('validates every field and reports them together', async () => {
    const res = await addCurrency({ code: 'EURO', name: '', symbol: '', minorUnits: 5, exchangeRate: 0, enabled: 'yes' });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(fieldsOf(res)).toEqual(['code', 'enabled', 'exchangeRate', 'minorUnits', 'name', 'symbol']);
    const missing = await addCurrency({});
    expect(fieldsOf(missing)).toEqual(['code', 'exchangeRate', 'name', 'symbol']);
  });

  it('refuses negative rates, rates with more than 8 decimals and non-letter codes', async () => {
    const base = { name: 'X', symbol: 'X' };
    expectError(await addCurrency({ ...base, code: freshCode(), exchangeRate: -1 }), 422, 'VALIDATION_ERROR');
    const precise = await addCurrency({ ...base, code: freshCode(), exchangeRate: 0.123456789 });
    expectError(precise, 422, 'VALIDATION_ERROR');
    expect(precise.body.error.details[0].message).toContain('8 decimals');
    expectError(await addCurrency({ ...base, code: 'U1D', exchangeRate: 1 }), 422, 'VALIDATION_ERROR');
  });

  it('needs settings:write', async () => {
    expectError(await addCurrency({ code: freshCode(), name: 'X', symbol: 'X', exchangeRate: 1 }, ''), 401, 'AUTHENTICATION_ERROR');
    const { token } = await insertUser();
    expectError(await addCurrency({ code: freshCode(), name: 'X', symbol: 'X', exchangeRate: 1 }, token), 403, 'AUTHORIZATION_ERROR');
    const reader = (await createApiKey(db(), { name: `reader ${uid()}`, permissions: ['settings:read'] })).key;
    expectError(await addCurrency({ code: freshCode(), name: 'X', symbol: 'X', exchangeRate: 1 }, reader), 403, 'AUTHORIZATION_ERROR');
  });
});

describe('GET /api/settings/currencies', () => {
  it('is public and shows the public only enabled currencies, whatever the filter says', async () => {
    const hidden = freshCode();
    await addCurrency({ code: hidden, name: 'Hidden', symbol: 'H', exchangeRate: 3, enabled: false });
    const res = await api('/api/settings/currencies?limit=100');
    expect(res.status).toBe(200);
    const codes = res.body.data.map((c: { code: string }) => c.code);
    expect(codes).toContain('USD');
    expect(codes).not.toContain(hidden);
    expect(res.body.data.find((c: any) => c.code === 'USD')).toMatchObject({ exchangeRate: 1, isDefault: true, minorUnits: 2 });
    const sneaky = await api('/api/settings/currencies?enabled=false');
    expect(sneaky.body.data).toEqual([]);
    expect(sneaky.body.pagination.total).toBe(0);
    expectError(await api(`/api/settings/currencies/${hidden}`), 404, 'NOT_FOUND');
  });

  it('shows staff every currency and filters on enabled', async () => {
    const hidden = freshCode();
    await addCurrency({ code: hidden, name: 'Hidden', symbol: 'H', exchangeRate: 3, enabled: false });
    const disabled = await api('/api/settings/currencies?enabled=false&limit=100', { key });
    expect(disabled.body.data.map((c: { code: string }) => c.code)).toContain(hidden);
    expect(disabled.body.data.every((c: { enabled: boolean }) => !c.enabled)).toBe(true);
    const enabled = await api('/api/settings/currencies?enabled=true&limit=100', { key });
    expect(enabled.body.data.map((c: { code: string }) => c.code)).not.toContain(hidden);
    expect((await api(`/api/settings/currencies/${hidden.toLowerCase()}`, { key })).body.data.code).toBe(hidden);
    expectError(await api('/api/settings/currencies?enabled=maybe', { key }), 400, 'INVALID_REQUEST');
  });

  it('sorts by name or code, counts in SQL, pages, and selects fields', async () => {
    const token = uid();
    const codes = [freshCode(), freshCode(), freshCode()];
    for (const [i, code] of codes.entries()) await addCurrency({ code, name: `Sortable ${token} ${'cba'[i]}`, symbol: 'S', exchangeRate: 1 });
    const byName = await api(`/api/settings/currencies?q=${token}&sort=name:asc&fields=code`, { key });
    expect(byName.body.data).toEqual([{ code: codes[2] }, { code: codes[1] }, { code: codes[0] }]);
    const paged = await api(`/api/settings/currencies?q=${token}&sort=code:desc&limit=2&page=2&fields=code,name`);
    expect(paged.body.data).toEqual([{ code: codes[0], name: `Sortable ${token} c` }]);
    expect(paged.body.pagination).toEqual({ page: 2, limit: 2, total: 3, totalPages: 2, hasNext: false, hasPrev: true });
    expectError(await api('/api/settings/currencies?sort=exchangeRate'), 400, 'INVALID_REQUEST');
    expectError(await api('/api/settings/currencies?colour=red'), 400, 'INVALID_REQUEST');
  });

  it('answers an unknown code with 404 and a broken credential with 401', async () => {
    expectError(await api('/api/settings/currencies/ZZZ'), 404, 'NOT_FOUND');
    expectError(await api('/api/settings/currencies', { key: 'sk_not_a_real_key_000000000000000000' }), 401, 'AUTHENTICATION_ERROR');
  });
});

describe('PATCH /api/settings/currencies/{code}', () => {
  it('changes a currency; the code in the body is not a known field', async () => {
    const code = freshCode();
    await addCurrency({ code, name: 'Before', symbol: 'B', exchangeRate: 1.5 });
    const res = await patchCurrency(code.toLowerCase(), { name: 'After', exchangeRate: 150.5, minorUnits: 0, enabled: false });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ code, name: 'After', exchangeRate: 150.5, minorUnits: 0, enabled: false });
    expect((await api(`/api/settings/currencies/${code}`, { key })).body.data).toEqual(res.body.data);
    const renamed = await patchCurrency(code, { code: 'ABC' });
    expectError(renamed, 422, 'VALIDATION_ERROR');
    expect(fieldsOf(renamed)).toEqual(['code']);
  });

  it('keeps the default currency enabled, at rate 1 and with its minor units (409)', async () => {
    for (const json of [{ exchangeRate: 2 }, { enabled: false }, { minorUnits: 3 }]) {
      const res = await patchCurrency('USD', json);
      expectError(res, 409, 'CONFLICT');
      expect(res.body.error.message).toContain('default currency');
    }
    const ok = await patchCurrency('USD', { exchangeRate: 1, minorUnits: 2, symbol: 'US$' });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ symbol: 'US$', exchangeRate: 1, enabled: true, isDefault: true });
    await patchCurrency('USD', { symbol: '$' });
  });

  it('answers an unknown code with 404 and bad values with 422', async () => {
    expectError(await patchCurrency('ZZZ', { name: 'x' }), 404, 'NOT_FOUND');
    expectError(await patchCurrency('USD', { exchangeRate: 'one' }), 422, 'VALIDATION_ERROR');
  });
});

describe('DELETE /api/settings/currencies/{code}', () => {
  it('deletes a currency nobody uses', async () => {
    const code = freshCode();
    await addCurrency({ code, name: 'Gone', symbol: 'G', exchangeRate: 1 });
    const res = await api(`/api/settings/currencies/${code}`, { method: 'DELETE', key });
    expect(res.status).toBe(204);
    expect(res.body).toBe('');
    expectError(await api(`/api/settings/currencies/${code}`, { key }), 404, 'NOT_FOUND');
  });

  it('refuses to delete the default currency or one a cart is in, suggesting to disable it', async () => {
    expectError(await api('/api/settings/currencies/USD', { method: 'DELETE', key }), 409, 'CONFLICT');
    const code = freshCode();
    await addCurrency({ code, name: 'In a cart', symbol: 'C', exchangeRate: 1 });
    await db()
      .insert(carts)
      .values({ id: `cart_${uid()}`, currency: code });
    const res = await api(`/api/settings/currencies/${code}`, { method: 'DELETE', key });
    expectError(res, 409, 'CONFLICT');
    expect(res.body.error.message).toContain('disable');
    expect((await api(`/api/settings/currencies/${code}`, { key })).status).toBe(200);
  });

  it('needs settings:write', async () => {
    expectError(await api('/api/settings/currencies/USD', { method: 'DELETE' }), 401, 'AUTHENTICATION_ERROR');
  });
});

describe("a currency's own amounts (products', coupons', promotions', shipping methods')", () => {
  it('keeps its minor units while anything has an own amount in it, and takes the amounts with it when deleted', async () => {
    const code = freshCode();
    expect((await addCurrency({ code, name: 'Test', symbol: 'T', exchangeRate: 2 })).status).toBe(201);
    const couponId = `coup_${uid()}`;
    await db()
      .insert(promotions)
      .values(couponPromotion({ id: couponId, code: `OWN${uid().toUpperCase()}`, type: 'fixed', value: '500', currencyAmounts: { [code]: { value: 900, minSubtotal: null } } }));

    const refused = await patchCurrency(code, { minorUnits: 3 });
    expectError(refused, 409, 'CONFLICT');
    expect(refused.body.error.details[0].field).toBe('minorUnits');
    expect((await db().select().from(currencies).where(eq(currencies.code, code)))[0]!.minorUnits).toBe(2);
    expect((await patchCurrency(code, { minorUnits: 2, name: 'Still two' })).status).toBe(200);

    expect((await api(`/api/settings/currencies/${code}`, { method: 'DELETE', key })).status).toBe(204);
    const [coupon] = await db().select().from(promotions).where(eq(promotions.id, couponId));
    expect(coupon!.currencyAmounts).toEqual({});
  });

  it("keeps its minor units under a promotion's own minimum, and takes it along when deleted", async () => {
    const code = freshCode();
    expect((await addCurrency({ code, name: 'Test', symbol: 'T', exchangeRate: 2 })).status).toBe(201);
    const made = await api('/api/promotions', {
      method: 'POST',
      key,
      json: { name: `Own minimum ${uid()}`, code: `OWN${uid().toUpperCase()}`, type: 'free_shipping', currencyAmounts: [{ currency: code, minSubtotal: 50 }] },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);

    expectError(await patchCurrency(code, { minorUnits: 3 }), 409, 'CONFLICT');
    expect((await db().select().from(currencies).where(eq(currencies.code, code)))[0]!.minorUnits).toBe(2);
    expect((await api(`/api/settings/currencies/${code}`, { method: 'DELETE', key })).status).toBe(204);
    expect((await db().select().from(promotions).where(eq(promotions.id, made.body.data.id)))[0]!.currencyAmounts).toEqual({});
  });
});
