import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { products, taxClasses, taxRates } from '../../src/db/schema';
import { isTriggerAbort } from '../../src/lib/db-errors';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service';
import { adminKey, api, createProduct, db, expectError, insertUser, uid } from '../helpers';

let key: string;
beforeAll(async () => {
  key = await adminKey();
});

const PATH = '/api/settings/tax-classes';
const addClass = (json: Record<string, unknown>, k = key) => api(PATH, { method: 'POST', key: k, json });
const fieldsOf = (res: { body: any }) => res.body.error.details.map((d: { field: string }) => d.field).sort();
/** A class code of its own for each test (storage is shared by the tests of a file). */
const freshCode = () =>
  `class-${uid()
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')}`.slice(0, 40);

describe('GET /api/settings/tax-classes', () => {
  it('lists the classes every store has, by code', async () => {
    const res = await api(`${PATH}?limit=100`, { key });
    expect(res.status).toBe(200);
    const built = res.body.data.filter((c: { code: string }) => ['reduced', 'standard', 'zero'].includes(c.code));
    expect(built).toEqual([
      { code: 'reduced', name: 'Reduced rate', createdAt: expect.any(String), updatedAt: expect.any(String) },
      { code: 'standard', name: 'Standard rate', createdAt: expect.any(String), updatedAt: expect.any(String) },
      { code: 'zero', name: 'Zero rate', createdAt: expect.any(String), updatedAt: expect.any(String) },
    ]);
    const codes = res.body.data.map((c: { code: string }) => c.code);
    expect(codes).toEqual([...codes].sort());
  });

  it('searches, sorts and selects fields; reads one class by its code in any case', async () => {
    const code = freshCode();
    await addClass({ code, name: 'Children’s clothes' });
    const found = await api(`${PATH}?q=${encodeURIComponent('children')}&fields=code`, { key });
    expect(found.body.data).toEqual([{ code }]);
    expect(found.body.pagination.total).toBe(1);
    const byName = await api(`${PATH}?sort=name:desc&fields=name&limit=100`, { key });
    const names = byName.body.data.map((c: { name: string }) => c.name);
    expect(names).toEqual([...names].sort().reverse());
    expect((await api(`${PATH}/${code.toUpperCase()}`, { key })).body.data).toMatchObject({ code, name: 'Children’s clothes' });
    expectError(await api(`${PATH}/nope`, { key }), 404, 'NOT_FOUND');
  });

  it('is for staff: settings:read, not a customer, not the public', async () => {
    expectError(await api(PATH), 401, 'AUTHENTICATION_ERROR');
    expectError(await api(`${PATH}/standard`), 401, 'AUTHENTICATION_ERROR');
    const { token } = await insertUser();
    expectError(await api(PATH, { key: token }), 403, 'AUTHORIZATION_ERROR');
    const reader = (await createApiKey(db(), { name: `reader ${uid()}`, permissions: ['settings:read'] })).key;
    expect((await api(`${PATH}/standard`, { key: reader })).status).toBe(200);
    expectError(await addClass({ code: freshCode(), name: 'No' }, reader), 403, 'AUTHORIZATION_ERROR');
  });
});

describe('POST /api/settings/tax-classes', () => {
  it('adds a class, with its Location', async () => {
    const code = freshCode();
    const res = await addClass({ code, name: '  Books ' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toEqual({ code, name: 'Books', createdAt: expect.any(String), updatedAt: expect.any(String) });
    expect(res.headers.get('Location')).toBe(`${PATH}/${code}`);
    const [row] = await db().select().from(taxClasses).where(eq(taxClasses.code, code));
    expect(row?.name).toBe('Books');
  });

  it('refuses a code taken (409 already_exists), one that is not a lower-case slug, and unknown fields (422)', async () => {
    const taken = await addClass({ code: 'reduced', name: 'Again' });
    expectError(taken, 409, 'CONFLICT');
    expect(taken.body.error.details).toMatchObject([{ field: 'code', code: 'already_exists' }]);
    expect(taken.body.error.message).toBe('A tax class with this code already exists');
    const bad = await addClass({ code: 'Food Items', name: '', rate: 7 });
    expectError(bad, 422, 'VALIDATION_ERROR');
    expect(fieldsOf(bad)).toEqual(['code', 'name', 'rate']);
    expect(fieldsOf(await addClass({}))).toEqual(['code', 'name']);
  });
});

describe('PATCH /api/settings/tax-classes/{code}', () => {
  it('renames a class; its code cannot change', async () => {
    const code = freshCode();
    await addClass({ code, name: 'Food' });
    const res = await api(`${PATH}/${code}`, { method: 'PATCH', key, json: { name: 'Food and drink' } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ code, name: 'Food and drink' });
    expect((await api(`${PATH}/${code}`, { key })).body.data).toEqual(res.body.data);
    const moved = await api(`${PATH}/${code}`, { method: 'PATCH', key, json: { code: 'other' } });
    expectError(moved, 422, 'VALIDATION_ERROR');
    expect(fieldsOf(moved)).toEqual(['code']);
    expectError(await api(`${PATH}/nope`, { method: 'PATCH', key, json: { name: 'x' } }), 404, 'NOT_FOUND');
  });
});

describe('DELETE /api/settings/tax-classes/{code}', () => {
  it('deletes a class and its rates', async () => {
    const code = freshCode();
    await addClass({ code, name: 'Short-lived' });
    const rate = await api('/api/settings/taxes', { method: 'POST', key, json: { name: 'Its rate', country: 'DE', rate: 7, taxClass: code } });
    expect(rate.status, JSON.stringify(rate.body)).toBe(201);
    expect((await api(`${PATH}/${code}`, { method: 'DELETE', key })).status).toBe(204);
    expectError(await api(`${PATH}/${code}`, { key }), 404, 'NOT_FOUND');
    expect(await db().select().from(taxRates).where(eq(taxRates.id, rate.body.data.id))).toEqual([]);
  });

  it('refuses standard and zero, which always exist (409)', async () => {
    for (const code of ['standard', 'zero']) {
      const res = await api(`${PATH}/${code}`, { method: 'DELETE', key });
      expectError(res, 409, 'CONFLICT');
      expect(res.body.error.message).toBe(`The ${code} tax class is built in and cannot be deleted`);
      expect((await api(`${PATH}/${code}`, { key })).status).toBe(200);
    }
  });

  it('refuses a class products use, saying how many (409); the database refuses it too', async () => {
    const code = freshCode();
    await addClass({ code, name: 'Used' });
    const product = (await createProduct(key)).id as string;
    await db().update(products).set({ taxClass: code }).where(eq(products.id, product));
    const res = await api(`${PATH}/${code}`, { method: 'DELETE', key });
    expectError(res, 409, 'CONFLICT');
    expect(res.body.error.message).toBe(`1 product uses the tax class ${code}; move it to another class first`);
    expect((await api(`${PATH}/${code}`, { key })).status).toBe(200);
    // A product that takes the class after the API's count still stops the delete (migrations/0052's
    // trigger), with the abort the service maps to the same 409.
    const raced = await db()
      .delete(taxClasses)
      .where(eq(taxClasses.code, code))
      .then(
        () => null,
        (error: unknown) => error,
      );
    expect(isTriggerAbort(raced, 'tax_class_in_use')).toBe(true);
    expect((await api(`${PATH}/${code}`, { key })).status).toBe(200);
  });

  it('needs settings:write', async () => {
    const reader = (await createApiKey(db(), { name: `reader ${uid()}`, permissions: ['settings:read'] })).key;
    expectError(await api(`${PATH}/reduced`, { method: 'DELETE', key: reader }), 403, 'AUTHORIZATION_ERROR');
    expectError(await api(`${PATH}/nope`, { method: 'DELETE', key }), 404, 'NOT_FOUND');
  });
});
