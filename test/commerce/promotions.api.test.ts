import { beforeAll, describe, expect, it } from 'vitest';
import { adminKey, api, createCategory, createProduct, expectError, insertUser, uid } from '../helpers';

/** /api/promotions as staff manage it: what is stored and shown, and every input refused with 422 naming its field. */

let key: string;
beforeAll(async () => {
  key = await adminKey();
});

const post = (json: unknown, as = key) => api('/api/promotions', { method: 'POST', key: as, json });
const patch = (id: string, json: unknown) => api(`/api/promotions/${id}`, { method: 'PATCH', key, json });
const fieldsOf = (res: { body: any }) => res.body.error.details.map((d: { field: string }) => d.field).sort();

describe('/api/promotions', () => {
  it('creates an automatic percentage promotion with its defaults, reads it by id and by code, lists and deletes it', async () => {
    const category = await createCategory(key);
    const res = await post({ name: 'Sale 10%', type: 'percentage', value: 10, target: 'items', include: { categoryIds: [category.id] } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const promotion = res.body.data;
    expect(promotion).toMatchObject({
      name: 'Sale 10%',
      code: null,
      type: 'percentage',
      value: 10,
      target: 'items',
      include: { productIds: [], categoryIds: [category.id], brandIds: [] },
      exclude: { productIds: [], categoryIds: [], brandIds: [] },
      buyXGetY: null,
      freeShipping: null,
      priority: 0,
      combinesWithPromotions: false,
      combinesWithCodes: false,
      active: true,
      timesUsed: 0,
    });
    expect(promotion.id).toMatch(/^promo_/);
    expect((await api(`/api/promotions/${promotion.id}`, { key })).body.data).toEqual(promotion);
    const list = await api(`/api/promotions?q=${encodeURIComponent('Sale 10%')}`, { key });
    expect(list.body.data.map((p: { id: string }) => p.id)).toContain(promotion.id);
    expect((await api(`/api/promotions/${promotion.id}`, { method: 'DELETE', key })).status).toBe(204);
    expect((await api(`/api/promotions/${promotion.id}`, { key })).status).toBe(404);
  });

  it('stores a fixed amount in minor units and shows it in major units; a code is upper case, found in any case, and unique (409)', async () => {
    const code = `SAVE-${uid()}`;
    const res = await post({ name: 'Ten off', code: code.toLowerCase(), type: 'fixed', value: 10.5, minSubtotal: 40, combinesWithPromotions: true });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ code: code.toUpperCase(), value: 10.5, minSubtotal: 40, combinesWithPromotions: true });
    expect((await api(`/api/promotions/${code.toLowerCase()}`, { key })).body.data.id).toBe(res.body.data.id);
    expectError(await post({ name: 'Again', code, type: 'fixed', value: 1 }), 409, 'CONFLICT');
  });

  it('stores buy X get Y and free shipping with their own settings', async () => {
    const socks = await createProduct(key);
    const bxgy = await post({ name: 'Third pair free', type: 'buy_x_get_y', buyXGetY: { buy: { quantity: 2, productIds: [socks.id] }, get: { quantity: 1 } } });
    expect(bxgy.status, JSON.stringify(bxgy.body)).toBe(201);
    expect(bxgy.body.data).toMatchObject({
      value: 0,
      buyXGetY: { buy: { quantity: 2, productIds: [socks.id], categoryIds: [], brandIds: [] }, get: { quantity: 1, percent: 100, productIds: [] } },
    });
    const free = await post({ name: 'Free shipping', type: 'free_shipping', minSubtotal: 50, freeShipping: { methodIds: ['smeth_standard'] } });
    expect(free.status, JSON.stringify(free.body)).toBe(201);
    expect(free.body.data).toMatchObject({ freeShipping: { methodIds: ['smeth_standard'], zoneIds: [] }, buyXGetY: null });
  });

  it('refuses every invalid field at once with 422, unknown ids with not_found', async () => {
    const res = await post({
      name: 'Bad',
      type: 'percentage',
      value: 120,
      include: { productIds: ['prod_nope'], brandIds: ['brand_nope'] },
      customerGroupIds: ['cgrp_nope'],
      currencies: ['XYZ'],
      freeShipping: { zoneIds: ['szone_nope'] },
      currencyAmounts: [
        { currency: 'USD', minSubtotal: 1 },
        { currency: 'EUR', value: 1 },
      ],
      startsAt: '2030-01-02T00:00:00Z',
      endsAt: '2030-01-01T00:00:00Z',
    });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(fieldsOf(res)).toEqual(
      [
        'currencies',
        'currencyAmounts.0.currency',
        'currencyAmounts.1.currency',
        'customerGroupIds',
        'endsAt',
        'freeShipping',
        'freeShipping.zoneIds',
        'include.brandIds',
        'include.productIds',
        'value',
      ].sort(),
    );
    const notFound = res.body.error.details.filter((d: { code: string }) => d.code === 'not_found').map((d: { field: string }) => d.field);
    expect(notFound.sort()).toEqual(['currencies', 'currencyAmounts.1.currency', 'customerGroupIds', 'freeShipping.zoneIds', 'include.brandIds', 'include.productIds']);

    expect(fieldsOf(await post({ name: 'No value', type: 'fixed' }))).toEqual(['value']);
    expect(fieldsOf(await post({ name: 'No rule', type: 'buy_x_get_y' }))).toEqual(['buyXGetY']);
    expect(fieldsOf(await post({ name: 'Unknown', type: 'percentage', value: 5, colour: 'red' }))).toEqual(['colour']);
    expect(fieldsOf(await post({ type: 'percentage', value: 5 }))).toEqual(['name']);
  });

  it('changes what is given, refuses a usage limit below timesUsed, and needs coupons:write', async () => {
    const created = (await post({ name: 'Patched', type: 'percentage', value: 5 })).body.data;
    const changed = await patch(created.id, { type: 'fixed', value: 3, usageLimit: 5, priority: 2 });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect(changed.body.data).toMatchObject({ type: 'fixed', value: 3, usageLimit: 5, priority: 2, name: 'Patched' });
    expect(fieldsOf(await patch(created.id, { type: 'percentage' }))).toEqual(['value']);
    const customer = await insertUser();
    expectError(await post({ name: 'Mine', type: 'percentage', value: 5 }, customer.token), 403, 'AUTHORIZATION_ERROR');
    expectError(await api('/api/promotions', { key: customer.token }), 403, 'AUTHORIZATION_ERROR');
  });
});
