import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { shippingMethods, storeSettings } from '../../src/db/schema';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service';
import { adminKey, api, db, expectError, insertUser, uid } from '../helpers';

let key: string;
beforeAll(async () => {
  key = await adminKey();
});

const patchSettings = (json: unknown, k = key) => api('/api/settings', { method: 'PATCH', key: k, json });
const addCurrency = (json: Record<string, unknown>) => api('/api/settings/currencies', { method: 'POST', key, json });
const storedRow = async () => (await db().select().from(storeSettings).where(eq(storeSettings.id, 'store')))[0]!;
/** The shipping method the deprecated shipping fields alias (src/modules/settings/legacy-shipping-settings.ts). */
const standardMethod = async () => (await db().select().from(shippingMethods).where(eq(shippingMethods.id, 'smeth_standard')))[0]!;
const fieldsOf = (res: { body: any }) => res.body.error.details.map((d: { field: string }) => d.field).sort();

describe('GET /api/settings', () => {
  it('shows the migrated defaults, amounts in major units, without the internal row id', async () => {
    const res = await api('/api/settings', { key });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      name: expect.any(String),
      contactEmail: null,
      defaultCurrency: 'USD',
      weightUnit: 'kg',
      lowStockThreshold: 5,
      shippingFlatRate: 0,
      freeShippingThreshold: null,
      allowedOrigins: [],
      pricesIncludeTax: false,
      returnWindowDays: 30,
      apiVersion: '2026-11-20',
      updatedAt: expect.any(String),
    });
  });

  it('selects fields', async () => {
    const res = await api('/api/settings?fields=default_currency,weightUnit', { key });
    expect(res.body.data).toEqual({ defaultCurrency: 'USD', weightUnit: 'kg' });
    expectError(await api('/api/settings?fields=id', { key }), 400, 'INVALID_REQUEST');
  });

  it('needs a credential with settings:read', async () => {
    expectError(await api('/api/settings'), 401, 'AUTHENTICATION_ERROR');
    const { token } = await insertUser();
    expectError(await api('/api/settings', { key: token }), 403, 'AUTHORIZATION_ERROR');
  });
});

describe('PATCH /api/settings', () => {
  it('stores shipping amounts as minor units and shows them in major units', async () => {
    const res = await patchSettings({
      name: 'Corner Shop',
      contactEmail: 'shop@example.test',
      shippingFlatRate: 4.95,
      freeShippingThreshold: 50.1,
      weightUnit: 'lb',
      lowStockThreshold: 0,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      name: 'Corner Shop',
      contactEmail: 'shop@example.test',
      shippingFlatRate: 4.95,
      freeShippingThreshold: 50.1,
      weightUnit: 'lb',
      lowStockThreshold: 0,
    });
    expect(await standardMethod()).toMatchObject({ rate: { type: 'flat', amount: 495 }, freeAbove: 5010 });
    expect((await api('/api/settings', { key })).body.data).toEqual(res.body.data);
  });

  it('switches catalogue prices to include tax and back; the stored flag follows, a non-boolean is 422', async () => {
    const on = await patchSettings({ pricesIncludeTax: true });
    expect(on.status, JSON.stringify(on.body)).toBe(200);
    expect(on.body.data.pricesIncludeTax).toBe(true);
    expect((await storedRow()).pricesIncludeTax).toBe(true);
    expect((await api('/api/settings?fields=pricesIncludeTax', { key })).body.data).toEqual({ pricesIncludeTax: true });
    const bad = await patchSettings({ pricesIncludeTax: 'yes' });
    expectError(bad, 422, 'VALIDATION_ERROR');
    expect(fieldsOf(bad)).toEqual(['pricesIncludeTax']);
    expect((await patchSettings({ pricesIncludeTax: false })).body.data.pricesIncludeTax).toBe(false);
    expect((await storedRow()).pricesIncludeTax).toBe(false);
  });

  it('clears the free-shipping threshold with null', async () => {
    await patchSettings({ freeShippingThreshold: 20 });
    const res = await patchSettings({ freeShippingThreshold: null });
    expect(res.body.data.freeShippingThreshold).toBeNull();
    expect((await standardMethod()).freeAbove).toBeNull();
  });

  it('reports every invalid field at once, as 422', async () => {
    const res = await patchSettings({ name: '', contactEmail: 'nope', weightUnit: 'stone', lowStockThreshold: -1, shippingFlatRate: -2, id: 'x' });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(fieldsOf(res)).toEqual(['contactEmail', 'id', 'lowStockThreshold', 'name', 'shippingFlatRate', 'weightUnit']);
  });

  it('refuses more decimals than the default currency has', async () => {
    const res = await patchSettings({ shippingFlatRate: 4.955, freeShippingThreshold: 10.001 });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(fieldsOf(res)).toEqual(['freeShippingThreshold', 'shippingFlatRate']);
    expect(res.body.error.details[0].message).toContain('2 decimals');
  });

  it('refuses an unknown or disabled default currency with 422', async () => {
    const unknown = await patchSettings({ defaultCurrency: 'ZZZ' });
    expectError(unknown, 422, 'VALIDATION_ERROR');
    expect(unknown.body.error.details).toEqual([{ field: 'defaultCurrency', code: 'invalid_value', message: expect.stringContaining('unknown') }]);
    const code = 'DSB';
    expect((await addCurrency({ code, name: 'Disabled', symbol: 'D', exchangeRate: 1, enabled: false })).status).toBe(201);
    const disabled = await patchSettings({ defaultCurrency: code });
    expectError(disabled, 422, 'VALIDATION_ERROR');
    expect(disabled.body.error.details[0].message).toContain('disabled');
    expectError(await patchSettings({ defaultCurrency: 'EURO' }), 422, 'VALIDATION_ERROR');
  });

  it('refuses a default currency whose rate is not 1, or whose minor units differ, with 409 saying why', async () => {
    expect((await addCurrency({ code: 'GBP', name: 'Pound', symbol: '£', exchangeRate: 0.79 })).status).toBe(201);
    const rate = await patchSettings({ defaultCurrency: 'gbp', name: 'Not applied' });
    expectError(rate, 409, 'CONFLICT');
    expect(rate.body.error.message).toContain('exchange rate');
    expect((await addCurrency({ code: 'JPY', name: 'Yen', symbol: '¥', minorUnits: 0, exchangeRate: 1 })).status).toBe(201);
    const digits = await patchSettings({ defaultCurrency: 'JPY' });
    expectError(digits, 409, 'CONFLICT');
    expect(digits.body.error.message).toContain('minor');
    expect((await storedRow()).defaultCurrency).toBe('USD');
    expect((await storedRow()).name).not.toBe('Not applied');
  });

  it('switches the default to an enabled currency at rate 1; the currencies show which is default', async () => {
    expect((await addCurrency({ code: 'EUR', name: 'Euro', symbol: '€', exchangeRate: 0.92 })).status).toBe(201);
    expect((await api('/api/settings/currencies/EUR', { method: 'PATCH', key, json: { exchangeRate: 1 } })).status).toBe(200);
    const res = await patchSettings({ defaultCurrency: 'eur', shippingFlatRate: 3 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ defaultCurrency: 'EUR', shippingFlatRate: 3 });
    expect((await api('/api/settings/currencies/EUR')).body.data.isDefault).toBe(true);
    expect((await api('/api/settings/currencies/USD')).body.data.isDefault).toBe(false);
    // The old default is an ordinary currency now: it may be disabled, and the new one may not.
    expectError(await api('/api/settings/currencies/EUR', { method: 'PATCH', key, json: { enabled: false } }), 409, 'CONFLICT');
    expect((await patchSettings({ defaultCurrency: 'USD' })).body.data.defaultCurrency).toBe('USD');
  });

  it('needs settings:write', async () => {
    const reader = (await createApiKey(db(), { name: `reader ${uid()}`, permissions: ['settings:read'] })).key;
    expect((await api('/api/settings', { key: reader })).status).toBe(200);
    expectError(await patchSettings({ name: 'x' }, reader), 403, 'AUTHORIZATION_ERROR');
    expectError(await api('/api/settings', { method: 'PATCH', json: { name: 'x' } }), 401, 'AUTHENTICATION_ERROR');
  });

  it('answers malformed JSON with 400, not 500', async () => {
    const res = await api('/api/settings', { method: 'PATCH', key, body: '{"name":', headers: { 'Content-Type': 'application/json' } });
    expectError(res, 400, 'INVALID_REQUEST');
  });
});
