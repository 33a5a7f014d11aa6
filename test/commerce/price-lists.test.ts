import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service';
import { adminKey, api, createProduct, db, expectError, uid } from '../helpers';

let key: string;
beforeAll(async () => {
  key = await adminKey();
});

const addList = (json: Record<string, unknown>) => api('/api/price-lists', { method: 'POST', key, json });
const fieldsOf = (res: { body: any }) => res.body.error.details.map((d: { field: string }) => d.field).sort();
const group = async () => (await api('/api/customer-groups', { method: 'POST', key, json: { name: `G ${uid()}` } })).body.data;

describe('/api/price-lists', () => {
  it('creates a list with tiers, shows amounts in major units, replaces its prices on update and deletes it', async () => {
    const g = await group();
    const product = await createProduct(key, { price: 10 });
    const variantId = product.variants[0].id;
    const created = await addList({
      name: `Wholesale ${uid()}`,
      customerGroupId: g.id,
      currency: 'usd',
      status: 'active',
      prices: [
        { variantId, minQuantity: 10, amount: 8.5 },
        { variantId, amount: 9.25 },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data).toMatchObject({
      id: expect.stringMatching(/^plist_[0-9A-Z]{26}$/),
      customerGroupId: g.id,
      currency: 'USD',
      status: 'active',
      startsAt: null,
      endsAt: null,
      prices: [
        { variantId, minQuantity: 1, amount: 9.25 },
        { variantId, minQuantity: 10, amount: 8.5 },
      ],
    });
    const id = created.body.data.id;
    const updated = await api(`/api/price-lists/${id}`, { method: 'PATCH', key, json: { status: 'draft', prices: [{ variantId, amount: 7 }] } });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect(updated.body.data.status).toBe('draft');
    expect(updated.body.data.prices).toEqual([{ variantId, minQuantity: 1, amount: 7 }]);
    const listed = await api(`/api/price-lists?customer_group=${g.id}`, { key });
    expect(listed.body.data.map((l: { id: string }) => l.id)).toEqual([id]);
    expect(listed.body.data[0].prices).toEqual([{ variantId, minQuantity: 1, amount: 7 }]);
    // A group a list is for cannot be deleted.
    expectError(await api(`/api/customer-groups/${g.id}`, { method: 'DELETE', key }), 409, 'CONFLICT');
    expect((await api(`/api/price-lists/${id}`, { method: 'DELETE', key })).status).toBe(204);
    expectError(await api(`/api/price-lists/${id}`, { key }), 404, 'NOT_FOUND');
    expect((await api(`/api/customer-groups/${g.id}`, { method: 'DELETE', key })).status).toBe(204);
  });

  it('names every problem: unknown group, currency and variant, too many decimals, a repeated tier, an end before the start', async () => {
    const product = await createProduct(key);
    const variantId = product.variants[0].id;
    const schemaProblems = await addList({
      name: 'x',
      currency: 'USD',
      prices: [
        { variantId, amount: 1 },
        { variantId, minQuantity: 1, amount: 2 },
        { variantId, minQuantity: 0, amount: 1 },
      ],
    });
    expectError(schemaProblems, 422, 'VALIDATION_ERROR');
    expect(fieldsOf(schemaProblems)).toEqual(['prices.1.minQuantity', 'prices.2.minQuantity']);
    const refs = await addList({
      name: 'x',
      currency: 'XYZ',
      customerGroupId: 'cgrp_nope',
      startsAt: '2030-01-02T00:00:00Z',
      endsAt: '2030-01-01T00:00:00Z',
      prices: [{ variantId: 'var_nope', amount: 1 }],
    });
    expectError(refs, 422, 'VALIDATION_ERROR');
    expect(fieldsOf(refs)).toEqual(['currency', 'customerGroupId', 'endsAt', 'prices.0.variantId']);
    const decimals = await addList({ name: 'x', currency: 'USD', prices: [{ variantId, amount: 1.005 }] });
    expectError(decimals, 422, 'VALIDATION_ERROR');
    expect(fieldsOf(decimals)).toEqual(['prices.0.amount']);
    const id = (await addList({ name: 'x', currency: 'USD' })).body.data.id;
    expectError(await api(`/api/price-lists/${id}`, { method: 'PATCH', key, json: { currency: 'EUR' } }), 422, 'VALIDATION_ERROR');
  });

  it('needs price-lists:read to read and price-lists:write to write; the products permissions reach neither', async () => {
    expectError(await api('/api/price-lists'), 401, 'AUTHENTICATION_ERROR');
    const reader = (await createApiKey(db(), { name: 'reader', permissions: ['price-lists:read'] })).key;
    expect((await api('/api/price-lists', { key: reader })).status).toBe(200);
    expectError(await api('/api/price-lists', { method: 'POST', key: reader, json: { name: 'x', currency: 'USD' } }), 403, 'AUTHORIZATION_ERROR');
    const catalogue = (await createApiKey(db(), { name: 'catalogue', permissions: ['products:*'] })).key;
    expectError(await api('/api/price-lists', { key: catalogue }), 403, 'AUTHORIZATION_ERROR');
    expectError(await api('/api/price-lists', { method: 'POST', key: catalogue, json: { name: 'x', currency: 'USD' } }), 403, 'AUTHORIZATION_ERROR');
  });

  it("keeps its currency's minor units while it has prices in it, and goes with the currency when that is deleted", async () => {
    const code = `Q${uid()
      .replace(/[^a-z]/g, '')
      .slice(0, 2)
      .toUpperCase()
      .padEnd(2, 'Z')}`;
    expect((await api('/api/settings/currencies', { method: 'POST', key, json: { code, name: 'Test', symbol: 'T', exchangeRate: 2 } })).status).toBe(201);
    const variantId = (await createProduct(key)).variants[0].id;
    const list = (await addList({ name: 'x', currency: code, prices: [{ variantId, amount: 3.5 }] })).body.data;
    expectError(await api(`/api/settings/currencies/${code}`, { method: 'PATCH', key, json: { minorUnits: 3 } }), 409, 'CONFLICT');
    expect((await api(`/api/settings/currencies/${code}`, { method: 'DELETE', key })).status).toBe(204);
    expectError(await api(`/api/price-lists/${list.id}`, { key }), 404, 'NOT_FOUND');
  });
});
