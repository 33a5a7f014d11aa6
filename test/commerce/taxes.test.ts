import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { taxRates } from '../../src/db/schema';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service';
import { adminKey, api, db, expectError, insertUser, uid } from '../helpers';

let key: string;
beforeAll(async () => {
  key = await adminKey();
});

const addRate = (json: Record<string, unknown>, k = key) => api('/api/settings/taxes', { method: 'POST', key: k, json });
const fieldsOf = (res: { body: any }) => res.body.error.details.map((d: { field: string }) => d.field).sort();

/** A region code unique within the run, so each test has places of its own (storage is shared per file). */
let regionCounter = 0;
const freshRegion = () => (++regionCounter).toString(36).toUpperCase().padStart(3, 'R');

describe('POST /api/settings/taxes', () => {
  it('creates a rate: codes upper-cased, percent kept as exact decimal text and shown as a number', async () => {
    const region = freshRegion();
    const res = await addRate({ name: 'Sales tax', country: 'us', region: region.toLowerCase(), rate: 8.875, shippingTaxable: true });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.stringMatching(/^tax_[0-9A-Z]{26}$/),
      name: 'Sales tax',
      country: 'US',
      region,
      rate: 8.875,
      shippingTaxable: true,
      taxClass: 'standard',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(res.headers.get('Location')).toBe(`/api/settings/taxes/${res.body.data.id}`);
    const [row] = await db().select().from(taxRates).where(eq(taxRates.id, res.body.data.id));
    expect(row!.rate).toBe('8.875');
  });

  it('defaults region to the whole country and shipping to untaxed', async () => {
    const res = await addRate({ name: 'VAT', country: 'DE', rate: 19 });
    expect(res.body.data).toMatchObject({ country: 'DE', region: null, rate: 19, shippingTaxable: false });
  });

  it('refuses a second rate for the same place with 409, for a region and for a whole country', async () => {
    const region = freshRegion();
    expect((await addRate({ name: 'A', country: 'CA', region, rate: 5 })).status).toBe(201);
    const dupRegion = await addRate({ name: 'B', country: 'ca', region: region.toLowerCase(), rate: 7 });
    expectError(dupRegion, 409, 'CONFLICT');
    expect(dupRegion.body.error.details).toMatchObject([{ field: 'region' }]);
    expect((await addRate({ name: 'Country', country: 'FR', rate: 20 })).status).toBe(201);
    const dupCountry = await addRate({ name: 'Again', country: 'FR', rate: 5.5 });
    expectError(dupCountry, 409, 'CONFLICT');
    expect(dupCountry.body.error.message).toContain('FR');
    // A region of a country that has a country-wide rate is a different place.
    expect((await addRate({ name: 'Corsica', country: 'FR', region: freshRegion(), rate: 13 })).status).toBe(201);
  });

  it('validates every field and reports them together', async () => {
    const res = await addRate({ name: '', country: 'XX', region: 'TOOLONG', rate: 100.5, shippingTaxable: 'no' });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(fieldsOf(res)).toEqual(['country', 'name', 'rate', 'region', 'shippingTaxable']);
    expect(fieldsOf(await addRate({}))).toEqual(['country', 'name', 'rate']);
    expectError(await addRate({ name: 'x', country: 'USA', rate: 1 }), 422, 'VALIDATION_ERROR');
    expectError(await addRate({ name: 'x', country: 'US', rate: -1 }), 422, 'VALIDATION_ERROR');
    const precise = await addRate({ name: 'x', country: 'US', region: freshRegion(), rate: 8.87501 });
    expectError(precise, 422, 'VALIDATION_ERROR');
    expect(precise.body.error.details[0].message).toContain('4 decimals');
  });

  it('accepts the bounds 0 and 100', async () => {
    expect((await addRate({ name: 'Zero', country: 'US', region: freshRegion(), rate: 0 })).body.data.rate).toBe(0);
    expect((await addRate({ name: 'All', country: 'US', region: freshRegion(), rate: 100 })).body.data.rate).toBe(100);
  });

  it('needs settings:write', async () => {
    expectError(await addRate({ name: 'x', country: 'US', rate: 1 }, ''), 401, 'AUTHENTICATION_ERROR');
    const reader = (await createApiKey(db(), { name: `reader ${uid()}`, permissions: ['settings:read'] })).key;
    expectError(await addRate({ name: 'x', country: 'US', rate: 1 }, reader), 403, 'AUTHORIZATION_ERROR');
  });
});

describe('GET /api/settings/taxes', () => {
  it('filters by country and region in any case, sorts and counts', async () => {
    const regions = [freshRegion(), freshRegion()];
    await addRate({ name: 'Zeta', country: 'AU', region: regions[0], rate: 10 });
    await addRate({ name: 'Alpha', country: 'AU', region: regions[1], rate: 10 });
    const res = await api('/api/settings/taxes?country=au&sort=name:desc&fields=name,region', { key });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { name: 'Zeta', region: regions[0] },
      { name: 'Alpha', region: regions[1] },
    ]);
    expect(res.body.pagination.total).toBe(2);
    const one = await api(`/api/settings/taxes?country=AU&region=${regions[1]!.toLowerCase()}`, { key });
    expect(one.body.data.map((r: { name: string }) => r.name)).toEqual(['Alpha']);
  });

  it('refuses bad filters, unknown parameters and sort keys with 400', async () => {
    expectError(await api('/api/settings/taxes?country=ZZ', { key }), 400, 'INVALID_REQUEST');
    expectError(await api('/api/settings/taxes?rate=5', { key }), 400, 'INVALID_REQUEST');
    expectError(await api('/api/settings/taxes?sort=rate', { key }), 400, 'INVALID_REQUEST');
    expect((await api('/api/settings/taxes?sort=created_at:desc,country', { key })).status).toBe(200);
  });

  it('reads one rate; unknown is 404', async () => {
    const created = (await addRate({ name: 'One', country: 'NZ', rate: 15 })).body.data;
    expect((await api(`/api/settings/taxes/${created.id}`, { key })).body.data).toEqual(created);
    expectError(await api('/api/settings/taxes/tax_nope', { key }), 404, 'NOT_FOUND');
  });

  it('needs settings:read, which a customer does not have', async () => {
    expectError(await api('/api/settings/taxes'), 401, 'AUTHENTICATION_ERROR');
    const { token } = await insertUser();
    expectError(await api('/api/settings/taxes', { key: token }), 403, 'AUTHORIZATION_ERROR');
    const reader = (await createApiKey(db(), { name: `reader ${uid()}`, permissions: ['settings:read'] })).key;
    expect((await api('/api/settings/taxes', { key: reader })).status).toBe(200);
  });
});

describe('PATCH and DELETE /api/settings/taxes/{id}', () => {
  it('changes a rate', async () => {
    const created = (await addRate({ name: 'Old', country: 'GB', region: freshRegion(), rate: 20 })).body.data;
    const res = await api(`/api/settings/taxes/${created.id}`, { method: 'PATCH', key, json: { name: 'New', rate: 17.5, region: null, shippingTaxable: true } });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ id: created.id, name: 'New', rate: 17.5, region: null, shippingTaxable: true });
    expect((await api(`/api/settings/taxes/${created.id}`, { key })).body.data).toEqual(res.body.data);
  });

  it('refuses moving a rate onto a place that has one with 409', async () => {
    const region = freshRegion();
    await addRate({ name: 'Taken', country: 'IT', region, rate: 22 });
    const other = (await addRate({ name: 'Other', country: 'IT', region: freshRegion(), rate: 10 })).body.data;
    expectError(await api(`/api/settings/taxes/${other.id}`, { method: 'PATCH', key, json: { region } }), 409, 'CONFLICT');
    expect((await api(`/api/settings/taxes/${other.id}`, { key })).body.data.region).toBe(other.region);
  });

  it('validates the patch and refuses unknown fields', async () => {
    const created = (await addRate({ name: 'V', country: 'ES', region: freshRegion(), rate: 21 })).body.data;
    const res = await api(`/api/settings/taxes/${created.id}`, { method: 'PATCH', key, json: { rate: 101, id: 'tax_x' } });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(fieldsOf(res)).toEqual(['id', 'rate']);
    expectError(await api('/api/settings/taxes/tax_nope', { method: 'PATCH', key, json: { rate: 1 } }), 404, 'NOT_FOUND');
  });

  it('deletes a rate', async () => {
    const created = (await addRate({ name: 'Gone', country: 'SE', region: freshRegion(), rate: 25 })).body.data;
    expect((await api(`/api/settings/taxes/${created.id}`, { method: 'DELETE', key })).status).toBe(204);
    expectError(await api(`/api/settings/taxes/${created.id}`, { key }), 404, 'NOT_FOUND');
    expectError(await api(`/api/settings/taxes/${created.id}`, { method: 'DELETE', key }), 404, 'NOT_FOUND');
  });
});

describe('tax classes of rates', () => {
  it('keeps one rate per place and class: a reduced rate beside the standard one, a second reduced one 409 naming the class', async () => {
    const region = freshRegion();
    expect((await addRate({ name: 'Standard', country: 'AT', region, rate: 20 })).status).toBe(201);
    const reduced = await addRate({ name: 'Reduced', country: 'AT', region, rate: 10, taxClass: 'reduced' });
    expect(reduced.status, JSON.stringify(reduced.body)).toBe(201);
    expect(reduced.body.data).toMatchObject({ taxClass: 'reduced', rate: 10 });
    const again = await addRate({ name: 'Reduced again', country: 'AT', region, rate: 13, taxClass: 'reduced' });
    expectError(again, 409, 'CONFLICT');
    expect(again.body.error.message).toBe(`A reduced tax rate for AT-${region} already exists; change that one instead`);
    expect(again.body.error.details).toMatchObject([{ field: 'region', code: 'already_exists' }]);
    const whole = await addRate({ name: 'Whole', country: 'LU', rate: 17 });
    expect(whole.status).toBe(201);
    const wholeAgain = await addRate({ name: 'Whole again', country: 'LU', rate: 16 });
    expect(wholeAgain.body.error.message).toBe('A standard tax rate for LU (whole country) already exists; change that one instead');
  });

  it('refuses a class that does not exist (422 not_found) and the zero class (422), storing nothing', async () => {
    const region = freshRegion();
    const unknown = await addRate({ name: 'Unknown', country: 'BE', region, rate: 6, taxClass: 'luxury' });
    expectError(unknown, 422, 'VALIDATION_ERROR');
    expect(unknown.body.error.details).toEqual([{ field: 'taxClass', code: 'not_found', message: expect.stringContaining("no tax class 'luxury'") }]);
    const zero = await addRate({ name: 'Zero', country: 'BE', region, rate: 0, taxClass: 'zero' });
    expectError(zero, 422, 'VALIDATION_ERROR');
    expect(fieldsOf(zero)).toEqual(['taxClass']);
    expect(zero.body.error.details[0].message).toContain('the zero class is never taxed');
    expect((await api(`/api/settings/taxes?country=BE&region=${region}`, { key })).body.data).toEqual([]);
  });

  it('moves a rate to another existing class, and refuses an unknown class or zero, leaving it as it was', async () => {
    const created = (await addRate({ name: 'Movable', country: 'PT', region: freshRegion(), rate: 23 })).body.data;
    const path = `/api/settings/taxes/${created.id}`;
    const unknown = await api(path, { method: 'PATCH', key, json: { taxClass: 'luxury', rate: 5 } });
    expectError(unknown, 422, 'VALIDATION_ERROR');
    expect(unknown.body.error.details).toMatchObject([{ field: 'taxClass', code: 'not_found' }]);
    expect(fieldsOf(await api(path, { method: 'PATCH', key, json: { taxClass: 'zero' } }))).toEqual(['taxClass']);
    expect((await api(path, { key })).body.data).toEqual(created);
    const moved = await api(path, { method: 'PATCH', key, json: { taxClass: 'reduced', rate: 6 } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect((await api(path, { key })).body.data).toMatchObject({ taxClass: 'reduced', rate: 6 });
  });

  it('lists the rates of one class with tax_class, in any case', async () => {
    const region = freshRegion();
    await addRate({ name: 'Std', country: 'NL', region, rate: 21 });
    await addRate({ name: 'Low', country: 'NL', region, rate: 9, taxClass: 'reduced' });
    const reduced = await api(`/api/settings/taxes?country=NL&region=${region}&tax_class=Reduced&fields=name,taxClass`, { key });
    expect(reduced.status).toBe(200);
    expect(reduced.body.data).toEqual([{ name: 'Low', taxClass: 'reduced' }]);
    const standard = await api(`/api/settings/taxes?country=NL&region=${region}&tax_class=standard&fields=name`, { key });
    expect(standard.body.data).toEqual([{ name: 'Std' }]);
    expectError(await api('/api/settings/taxes?tax_class=not%20a%20code', { key }), 400, 'INVALID_REQUEST');
  });
});
