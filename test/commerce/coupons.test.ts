import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { promotionUsages, promotions } from '../../src/db/schema';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service';
import { adminKey, api, createCategory, createProduct, db, expectError, insertUser, uid } from '../helpers';

let key: string;
beforeAll(async () => {
  key = await adminKey();
});

const code = () => `C-${uid()}`.toUpperCase();
const addCoupon = (json: Record<string, unknown>, k = key) => api('/api/coupons', { method: 'POST', key: k, json });
const patchCoupon = (id: string, json: unknown) => api(`/api/coupons/${id}`, { method: 'PATCH', key, json });
const fieldsOf = (res: { body: any }) => res.body.error.details.map((d: { field: string }) => d.field).sort();
const stored = async (id: string) => (await db().select().from(promotions).where(eq(promotions.id, id)))[0]!;
const hourFromNow = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();

describe('POST /api/coupons', () => {
  it('creates a percentage coupon: code upper-cased, percent kept as exact text, every field shown', async () => {
    const c = code();
    const res = await addCoupon({ code: c.toLowerCase(), description: 'Ten off', type: 'percentage', value: 12.5 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.stringMatching(/^coup_[0-9A-Z]{26}$/),
      code: c,
      description: 'Ten off',
      type: 'percentage',
      value: 12.5,
      minSubtotal: null,
      startsAt: null,
      endsAt: null,
      usageLimit: null,
      usageLimitPerCustomer: null,
      timesUsed: 0,
      currencyAmounts: [],
      productIds: [],
      categoryIds: [],
      active: true,
      status: 'active',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(res.headers.get('Location')).toBe(`/api/coupons/${res.body.data.id}`);
    expect((await stored(res.body.data.id)).value).toBe('12.5');
  });

  it('stores a fixed value and minimum subtotal as minor units of the default currency', async () => {
    const res = await addCoupon({ code: code(), type: 'fixed', value: 5.25, minSubtotal: 30.1, usageLimit: 10, usageLimitPerCustomer: 1 });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ type: 'fixed', value: 5.25, minSubtotal: 30.1, usageLimit: 10, usageLimitPerCustomer: 1 });
    expect(await stored(res.body.data.id)).toMatchObject({ value: '525', minSubtotal: 3010 });
  });

  it('refuses a percentage over 100, or with more than 2 decimals, and a fixed value with more decimals than the currency', async () => {
    const over = await addCoupon({ code: code(), type: 'percentage', value: 100.01 });
    expectError(over, 422, 'VALIDATION_ERROR');
    expect(over.body.error.details).toEqual([{ field: 'value', code: 'invalid_value', message: expect.stringContaining('at most 100') }]);
    expectError(await addCoupon({ code: code(), type: 'percentage', value: 10.005 }), 422, 'VALIDATION_ERROR');
    expect((await addCoupon({ code: code(), type: 'percentage', value: 100 })).status).toBe(201);
    const fixed = await addCoupon({ code: code(), type: 'fixed', value: 1.999, minSubtotal: 0.001 });
    expect(fieldsOf(fixed)).toEqual(['minSubtotal', 'value']);
    expectError(await addCoupon({ code: code(), type: 'fixed', value: 0 }), 422, 'VALIDATION_ERROR');
  });

  it('validates every field of the body and reports them together', async () => {
    const res = await addCoupon({ code: 'a b', type: 'bogo', value: -1, usageLimit: 0, usageLimitPerCustomer: 1.5, startsAt: 'tomorrow', active: 'yes', timesUsed: 3 });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(fieldsOf(res)).toEqual(['active', 'code', 'startsAt', 'timesUsed', 'type', 'usageLimit', 'usageLimitPerCustomer', 'value']);
    expect(fieldsOf(await addCoupon({}))).toEqual(['code', 'type', 'value']);
    expectError(await addCoupon({ code: 'AB', type: 'fixed', value: 1 }), 422, 'VALIDATION_ERROR');
    expectError(await addCoupon({ code: 'X'.repeat(41), type: 'fixed', value: 1 }), 422, 'VALIDATION_ERROR');
  });

  it('refuses endsAt not after startsAt, comparing instants across offsets', async () => {
    const res = await addCoupon({ code: code(), type: 'fixed', value: 1, startsAt: '2030-01-01T10:00:00+02:00', endsAt: '2030-01-01T08:00:00Z' });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(fieldsOf(res)).toEqual(['endsAt']);
    const ok = await addCoupon({ code: code(), type: 'fixed', value: 1, startsAt: '2030-01-01T10:00:00+02:00', endsAt: '2030-01-01T08:00:01Z' });
    expect(ok.status).toBe(201);
    expect(ok.body.data.startsAt).toBe('2030-01-01T08:00:00.000Z');
  });

  it('checks that products and categories exist, naming the missing ids', async () => {
    const product = await createProduct(key);
    const category = await createCategory(key);
    const res = await addCoupon({ code: code(), type: 'percentage', value: 10, productIds: [product.id, 'prod_missing'], categoryIds: ['cat_gone', category.id] });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(res.body.error.details).toEqual([
      { field: 'productIds', code: 'not_found', message: expect.stringContaining('prod_missing') },
      { field: 'categoryIds', code: 'not_found', message: expect.stringContaining('cat_gone') },
    ]);
    const ok = await addCoupon({ code: code(), type: 'percentage', value: 10, productIds: [product.id, product.id], categoryIds: [category.id] });
    expect(ok.status).toBe(201);
    expect(ok.body.data).toMatchObject({ productIds: [product.id], categoryIds: [category.id] });
  });

  it('refuses a duplicate code in any case with 409', async () => {
    const c = code();
    expect((await addCoupon({ code: c, type: 'fixed', value: 1 })).status).toBe(201);
    const dup = await addCoupon({ code: c.toLowerCase(), type: 'percentage', value: 5 });
    expectError(dup, 409, 'CONFLICT');
    expect(dup.body.error.details).toMatchObject([{ field: 'code' }]);
  });

  it('needs coupons:write', async () => {
    expectError(await addCoupon({ code: code(), type: 'fixed', value: 1 }, ''), 401, 'AUTHENTICATION_ERROR');
    const { token } = await insertUser();
    expectError(await addCoupon({ code: code(), type: 'fixed', value: 1 }, token), 403, 'AUTHORIZATION_ERROR');
    const reader = (await createApiKey(db(), { name: `reader ${uid()}`, permissions: ['coupons:read'] })).key;
    expectError(await addCoupon({ code: code(), type: 'fixed', value: 1 }, reader), 403, 'AUTHORIZATION_ERROR');
    expect((await api('/api/coupons', { key: reader })).status).toBe(200);
  });
});

describe('GET /api/coupons/{id}', () => {
  it('finds a coupon by id or by code in any case; unknown is 404', async () => {
    const created = (await addCoupon({ code: code(), type: 'fixed', value: 2 })).body.data;
    expect((await api(`/api/coupons/${created.id}`, { key })).body.data).toEqual(created);
    expect((await api(`/api/coupons/${created.code.toLowerCase()}?fields=id,value`, { key })).body.data).toEqual({ id: created.id, value: 2 });
    expectError(await api('/api/coupons/NOPE-NOPE', { key }), 404, 'NOT_FOUND');
    expectError(await api(`/api/coupons/${created.id}`), 401, 'AUTHENTICATION_ERROR');
  });
});

describe('GET /api/coupons', () => {
  it('computes status in SQL and filters on it', async () => {
    const tag = uid();
    const make = async (suffix: string, body: Record<string, unknown>) => (await addCoupon({ code: `S${tag}-${suffix}`, type: 'fixed', value: 1, ...body })).body.data;
    const live = await make('LIVE', { startsAt: hourFromNow(-1), endsAt: hourFromNow(1) });
    const later = await make('LATER', { startsAt: hourFromNow(1) });
    const over = await make('OVER', { endsAt: hourFromNow(-1) });
    const off = await make('OFF', { active: false, endsAt: hourFromNow(-1) });
    const spent = await make('SPENT', { usageLimit: 2 });
    await db().update(promotions).set({ timesUsed: 2 }).where(eq(promotions.id, spent.id));
    const statusOf = async (id: string) => (await api(`/api/coupons/${id}`, { key })).body.data.status;
    expect([await statusOf(live.id), await statusOf(later.id), await statusOf(over.id), await statusOf(off.id), await statusOf(spent.id)]).toEqual([
      'active',
      'scheduled',
      'expired',
      'inactive',
      'used_up',
    ]);
    for (const [status, expected] of [
      ['active', live],
      ['scheduled', later],
      ['expired', over],
      ['inactive', off],
      ['used_up', spent],
    ] as const) {
      const res = await api(`/api/coupons?q=S${tag}&status=${status}&fields=id`, { key });
      expect(res.body.data, status).toEqual([{ id: expected.id }]);
      expect(res.body.pagination.total).toBe(1);
    }
    expectError(await api('/api/coupons?status=paused', { key }), 400, 'INVALID_REQUEST');
  });

  it('filters by q, type and active, and sorts by code, endsAt and createdAt', async () => {
    const tag = uid().toUpperCase();
    await addCoupon({ code: `B${tag}`, type: 'fixed', value: 1, endsAt: '2031-01-01T00:00:00Z' });
    await addCoupon({ code: `A${tag}`, type: 'percentage', value: 5, endsAt: '2032-01-01T00:00:00Z', active: false });
    await addCoupon({ code: `C${tag}`, type: 'percentage', value: 5, description: 'found by description', endsAt: '2030-01-01T00:00:00Z' });
    const codes = async (query: string) => (await api(`/api/coupons?q=${tag.toLowerCase()}&fields=code&${query}`, { key })).body.data.map((c: { code: string }) => c.code);
    expect(await codes('sort=code')).toEqual([`A${tag}`, `B${tag}`, `C${tag}`]);
    expect(await codes('sort=ends_at:desc')).toEqual([`A${tag}`, `B${tag}`, `C${tag}`]);
    expect(await codes('')).toEqual([`C${tag}`, `A${tag}`, `B${tag}`]);
    expect(await codes('type=percentage&sort=code')).toEqual([`A${tag}`, `C${tag}`]);
    expect(await codes('active=false')).toEqual([`A${tag}`]);
    expect((await api(`/api/coupons?q=found%20by%20desc&fields=code`, { key })).body.data).toEqual([{ code: `C${tag}` }]);
    expectError(await api('/api/coupons?sort=value', { key }), 400, 'INVALID_REQUEST');
    expectError(await api('/api/coupons?active=1', { key }), 400, 'INVALID_REQUEST');
    expectError(await api('/api/coupons?code=X', { key }), 400, 'INVALID_REQUEST');
  });

  it('needs coupons:read', async () => {
    expectError(await api('/api/coupons'), 401, 'AUTHENTICATION_ERROR');
    const { token } = await insertUser();
    expectError(await api('/api/coupons', { key: token }), 403, 'AUTHORIZATION_ERROR');
  });
});

describe('PATCH /api/coupons/{id}', () => {
  it('changes fields, by code too, and re-derives the status', async () => {
    const created = (await addCoupon({ code: code(), type: 'percentage', value: 10 })).body.data;
    const res = await patchCoupon(created.code.toLowerCase(), { type: 'fixed', value: 7.5, active: false, description: null });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ id: created.id, type: 'fixed', value: 7.5, active: false, status: 'inactive', description: null });
    expect((await stored(created.id)).value).toBe('750');
  });

  it('needs a value when the type changes, and checks a new value against the stored type', async () => {
    const created = (await addCoupon({ code: code(), type: 'fixed', value: 150 })).body.data;
    const res = await patchCoupon(created.id, { type: 'percentage' });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(res.body.error.details).toEqual([{ field: 'value', code: 'required', message: expect.stringContaining('type changes') }]);
    expectError(await patchCoupon(created.id, { type: 'percentage', value: 150 }), 422, 'VALIDATION_ERROR');
    expect((await patchCoupon(created.id, { value: 200 })).body.data.value).toBe(200);
  });

  it('checks endsAt against the stored startsAt', async () => {
    const created = (await addCoupon({ code: code(), type: 'fixed', value: 1, startsAt: '2030-06-01T00:00:00Z' })).body.data;
    const res = await patchCoupon(created.id, { endsAt: '2030-05-01T00:00:00Z' });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(fieldsOf(res)).toEqual(['endsAt']);
    expect((await patchCoupon(created.id, { startsAt: null, endsAt: '2030-05-01T00:00:00Z' })).status).toBe(200);
  });

  it('refuses a usage limit below timesUsed with 422; equal is used up', async () => {
    const created = (await addCoupon({ code: code(), type: 'fixed', value: 1, usageLimit: 10 })).body.data;
    await db().update(promotions).set({ timesUsed: 4 }).where(eq(promotions.id, created.id));
    const res = await patchCoupon(created.id, { usageLimit: 3 });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(res.body.error.details).toEqual([{ field: 'usageLimit', code: 'too_small', message: expect.stringContaining('4') }]);
    expect((await stored(created.id)).usageLimit).toBe(10);
    const equal = await patchCoupon(created.id, { usageLimit: 4 });
    expect(equal.body.data).toMatchObject({ usageLimit: 4, timesUsed: 4, status: 'used_up' });
  });

  it("refuses taking another coupon's code with 409, and unknown fields with 422", async () => {
    const first = (await addCoupon({ code: code(), type: 'fixed', value: 1 })).body.data;
    const second = (await addCoupon({ code: code(), type: 'fixed', value: 1 })).body.data;
    expectError(await patchCoupon(second.id, { code: first.code.toLowerCase() }), 409, 'CONFLICT');
    expectError(await patchCoupon(second.id, { timesUsed: 0 }), 422, 'VALIDATION_ERROR');
    expectError(await patchCoupon('coup_nope', { active: true }), 404, 'NOT_FOUND');
  });
});

describe('DELETE /api/coupons/{id}', () => {
  it('deletes an unused coupon', async () => {
    const created = (await addCoupon({ code: code(), type: 'fixed', value: 1 })).body.data;
    expect((await api(`/api/coupons/${created.code}`, { method: 'DELETE', key })).status).toBe(204);
    expectError(await api(`/api/coupons/${created.id}`, { key }), 404, 'NOT_FOUND');
  });

  it('refuses a used coupon with 409, suggesting to deactivate it', async () => {
    const created = (await addCoupon({ code: code(), type: 'fixed', value: 1 })).body.data;
    await db()
      .insert(promotionUsages)
      .values({ id: `cu_${uid()}`, promotionId: created.id, orderId: 'ord_x', customerKey: 'user_x' });
    const res = await api(`/api/coupons/${created.id}`, { method: 'DELETE', key });
    expectError(res, 409, 'CONFLICT');
    expect(res.body.error.message).toContain('deactivate');
    expect((await api(`/api/coupons/${created.id}`, { key })).status).toBe(200);
  });

  it('needs coupons:write', async () => {
    const created = (await addCoupon({ code: code(), type: 'fixed', value: 1 })).body.data;
    const reader = (await createApiKey(db(), { name: `reader ${uid()}`, permissions: ['coupons:read'] })).key;
    expectError(await api(`/api/coupons/${created.id}`, { method: 'DELETE', key: reader }), 403, 'AUTHORIZATION_ERROR');
  });
});
