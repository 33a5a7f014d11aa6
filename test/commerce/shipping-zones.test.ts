import { count, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { quoteVersion, shippingZones } from '../../src/db/schema';
import { adminKey, api, db, expectError, insertUser, uid } from '../helpers';

/** Shipping zones and their methods as staff manage them (/api/settings/shipping-zones). */

let key: string;
beforeAll(async () => {
  key = await adminKey();
});

const ZONES = '/api/settings/shipping-zones';
const post = (path: string, json: unknown) => api(path, { method: 'POST', key, json });
const patch = (path: string, json: unknown) => api(path, { method: 'PATCH', key, json });
const fieldsOf = (res: { body: any }) => res.body.error.details.map((d: { field: string }) => d.field).sort();
const version = async () => (await db().select().from(quoteVersion).where(eq(quoteVersion.id, 1)))[0]!.version;

describe('shipping zones', () => {
  it('lists the zone the migration made of the old flat rate: "Everywhere", with its "Standard" method', async () => {
    const res = await api(ZONES, { key });
    expect(res.status).toBe(200);
    const everywhere = res.body.data.find((z: { id: string }) => z.id === 'szone_everywhere');
    expect(everywhere).toMatchObject({ name: 'Everywhere', restOfWorld: true, countries: [], regions: [], postcodes: [] });
    const methods = await api(`${ZONES}/szone_everywhere/methods`, { key });
    expect(methods.body.data).toEqual([expect.objectContaining({ id: 'smeth_standard', name: 'Standard', active: true, rate: { type: 'flat', amount: 0 }, freeAbove: null })]);
  });

  it('creates, reads, changes and deletes a zone, normalising codes and patterns', async () => {
    const created = await post(ZONES, { name: 'Berlin', countries: ['de', 'DE'], regions: ['us-ca'], postcodes: ['10 1*', '12345'] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const zone = created.body.data;
    expect(zone).toMatchObject({ name: 'Berlin', countries: ['DE'], regions: ['US-CA'], postcodes: ['101*', '12345'], restOfWorld: false });
    expect(created.headers.get('Location')).toBe(`${ZONES}/${zone.id}`);
    expect((await api(`${ZONES}/${zone.id}`, { key })).body.data).toEqual(zone);
    const changed = await patch(`${ZONES}/${zone.id}`, { name: 'Berlin and Brandenburg', postcodes: [] });
    expect(changed.body.data).toMatchObject({ name: 'Berlin and Brandenburg', postcodes: [], countries: ['DE'] });
    expect((await api(`${ZONES}/${zone.id}`, { method: 'DELETE', key })).status).toBe(204);
    expectError(await api(`${ZONES}/${zone.id}`, { key }), 404, 'NOT_FOUND');
  });

  it('refuses bad places with 422 naming each field', async () => {
    const bad = await post(ZONES, { name: 'Bad', countries: ['XX', 'Germany'], regions: ['CA'], postcodes: ['*'] });
    expectError(bad, 422, 'VALIDATION_ERROR');
    expect(fieldsOf(bad)).toEqual(['countries.0', 'countries.1', 'postcodes.0', 'regions.0']);
    const empty = await post(ZONES, { name: 'Nowhere' });
    expectError(empty, 422, 'VALIDATION_ERROR');
    expect(fieldsOf(empty)).toEqual(['countries', 'regions']);
    const mixed = await post(ZONES, { name: 'World and France', restOfWorld: true, countries: ['FR'] });
    expect(fieldsOf(mixed)).toEqual(['countries']);
    expect(fieldsOf(await post(ZONES, { name: 'x', countries: ['FR'], extra: 1 }))).toEqual(['extra']);
  });

  it('has at most one rest-of-world zone: the database refuses a second, on create and on update (409)', async () => {
    const second = await post(ZONES, { name: 'Also everywhere', restOfWorld: true });
    expectError(second, 409, 'CONFLICT');
    expect(second.body.error.details[0].field).toBe('restOfWorld');
    expect(second.body.error.message).toBe('The store already has a rest-of-world zone; change that one instead');
    const france = (await post(ZONES, { name: 'France', countries: ['FR'] })).body.data;
    expectError(await patch(`${ZONES}/${france.id}`, { restOfWorld: true, countries: [] }), 409, 'CONFLICT');
  });

  it('needs settings:read to read and settings:write to change; storefronts do not list zones', async () => {
    expectError(await api(ZONES), 401, 'AUTHENTICATION_ERROR');
    const { token } = await insertUser();
    expectError(await api(ZONES, { key: token }), 403, 'AUTHORIZATION_ERROR');
    expectError(await api(`${ZONES}/szone_everywhere/methods`, { key: token }), 403, 'AUTHORIZATION_ERROR');
    expectError(await api(ZONES, { method: 'POST', key: token, json: { name: 'x', countries: ['FR'] } }), 403, 'AUTHORIZATION_ERROR');
  });

  it('moves quote_version on every change to a zone or method, so kept quote inputs are dropped', async () => {
    let before = await version();
    const zone = (await post(ZONES, { name: 'Austria', countries: ['AT'] })).body.data;
    expect(await version()).not.toBe(before);
    before = await version();
    const method = (await post(`${ZONES}/${zone.id}/methods`, { name: 'Post', rate: { type: 'flat', amount: 5 } })).body.data;
    expect(await version()).not.toBe(before);
    before = await version();
    await patch(`${ZONES}/${zone.id}/methods/${method.id}`, { active: false });
    expect(await version()).not.toBe(before);
    before = await version();
    await patch(`${ZONES}/${zone.id}`, { countries: ['AT', 'CH'] });
    expect(await version()).not.toBe(before);
  });
});

describe('shipping methods', () => {
  let zoneId: string;
  beforeAll(async () => {
    zoneId = (await post(ZONES, { name: 'Germany', countries: ['DE'] })).body.data.id;
  });
  const methods = () => `${ZONES}/${zoneId}/methods`;

  it('creates each kind of rate, amounts in major units, and lists them by position', async () => {
    const express = await post(methods(), { name: 'DHL Express', carrier: 'DHL', minDeliveryDays: 1, maxDeliveryDays: 1, position: 2, rate: { type: 'flat', amount: 12.9 } });
    expect(express.status, JSON.stringify(express.body)).toBe(201);
    expect(express.body.data).toMatchObject({ zoneId, name: 'DHL Express', carrier: 'DHL', active: true, rate: { type: 'flat', amount: 12.9 }, freeAbove: null });
    const paket = await post(methods(), {
      name: 'DHL Paket',
      carrier: 'DHL',
      position: 1,
      rate: {
        type: 'weight',
        bands: [
          { upTo: 2, amount: 4.99 },
          { upTo: 31.5, amount: 16.99 },
        ],
      },
      freeAbove: 50,
    });
    expect(paket.body.data).toMatchObject({
      rate: {
        type: 'weight',
        bands: [
          { upTo: 2, amount: 4.99 },
          { upTo: 31.5, amount: 16.99 },
        ],
      },
      freeAbove: 50,
    });
    const byPrice = await post(methods(), {
      name: 'Hermes',
      position: 3,
      rate: {
        type: 'price',
        bands: [
          { from: 0, amount: 5.5 },
          { from: 30, amount: 2 },
        ],
      },
    });
    expect(byPrice.body.data.rate).toEqual({
      type: 'price',
      bands: [
        { from: 0, amount: 5.5 },
        { from: 30, amount: 2 },
      ],
    });
    const listed = await api(methods(), { key });
    expect(listed.body.data.map((m: { name: string }) => m.name)).toEqual(['DHL Paket', 'DHL Express', 'Hermes']);
    const got = await api(`${methods()}/${paket.body.data.id}`, { key });
    expect(got.body.data).toEqual(paket.body.data);
  });

  it('replaces the rate whole on PATCH, and deletes', async () => {
    const m = (await post(methods(), { name: 'Temp', rate: { type: 'flat', amount: 1 } })).body.data;
    const changed = await patch(`${methods()}/${m.id}`, { rate: { type: 'weight', bands: [{ upTo: null, amount: 3 }] }, carrier: null });
    expect(changed.body.data.rate).toEqual({ type: 'weight', bands: [{ upTo: null, amount: 3 }] });
    expect((await api(`${methods()}/${m.id}`, { method: 'DELETE', key })).status).toBe(204);
    expectError(await api(`${methods()}/${m.id}`, { key }), 404, 'NOT_FOUND');
  });

  it.each([
    [
      'bands out of order',
      {
        type: 'weight',
        bands: [
          { upTo: 5, amount: 1 },
          { upTo: 2, amount: 1 },
        ],
      },
      ['rate.bands.1.upTo'],
    ],
    [
      'duplicate bands',
      {
        type: 'price',
        bands: [
          { from: 10, amount: 1 },
          { from: 10, amount: 2 },
        ],
      },
      ['rate.bands.1.from'],
    ],
    [
      'an open band before the last',
      {
        type: 'weight',
        bands: [
          { upTo: null, amount: 1 },
          { upTo: 2, amount: 1 },
        ],
      },
      ['rate.bands.0.upTo'],
    ],
    ['negative amounts and weights', { type: 'weight', bands: [{ upTo: -1, amount: -2 }] }, ['rate.bands.0.amount', 'rate.bands.0.upTo']],
    ['no bands', { type: 'price', bands: [] }, ['rate.bands']],
    ['an unknown kind', { type: 'distance', amount: 1 }, ['rate.type']],
    ['two kinds at once', { type: 'flat', amount: 1, bands: [] }, ['rate.bands']],
    ['more decimals than the currency has', { type: 'flat', amount: 1.999 }, ['rate.amount']],
  ])('refuses %s with 422 naming the field', async (_, rate, fields) => {
    const res = await post(methods(), { name: 'Bad', rate });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(fieldsOf(res)).toEqual(fields);
  });

  it('refuses a delivery window that ends before it starts, and an unknown zone or method', async () => {
    expect(fieldsOf(await post(methods(), { name: 'x', rate: { type: 'flat', amount: 1 }, minDeliveryDays: 3, maxDeliveryDays: 1 }))).toEqual(['maxDeliveryDays']);
    expectError(await post(`${ZONES}/szone_nope/methods`, { name: 'x', rate: { type: 'flat', amount: 1 } }), 404, 'NOT_FOUND');
    expectError(await api(`${ZONES}/szone_everywhere/methods/smeth_nope`, { key }), 404, 'NOT_FOUND');
    // A method is reached through its own zone only.
    const other = (await api(methods(), { key })).body.data[0];
    expectError(await api(`${ZONES}/szone_everywhere/methods/${other.id}`, { key }), 404, 'NOT_FOUND');
  });
});

describe('how many zones and methods a store keeps', () => {
  it('refuses a 21st method in one zone with 409, and lists the 20 in one page', async () => {
    const key = await adminKey();
    const zone = (await api('/api/settings/shipping-zones', { method: 'POST', key, json: { name: `Many methods ${uid()}`, countries: ['NO'] } })).body.data;
    const methods = `/api/settings/shipping-zones/${zone.id}/methods`;
    for (let i = 0; i < 20; i++) expect((await api(methods, { method: 'POST', key, json: { name: `Method ${i}`, rate: { type: 'flat', amount: i } } })).status).toBe(201);
    const refused = await api(methods, { method: 'POST', key, json: { name: 'One too many', rate: { type: 'flat', amount: 1 } } });
    expectError(refused, 409, 'CONFLICT');
    expect(refused.body.error.message).toMatch(/at most 20 methods/);
    const listed = await api(methods, { key });
    expect(listed.body.data).toHaveLength(20);
    expect(listed.body.pagination).toMatchObject({ page: 1, limit: 20, total: 20, hasNext: false });
  });
});

describe('the zone cap', () => {
  it('refuses a zone past 100 with 409', async () => {
    const [{ n } = { n: 0 }] = await db().select({ n: count() }).from(shippingZones);
    const filler = Array.from({ length: Math.max(0, 100 - n) }, (_, i) => ({ id: `szone_filler_${uid()}_${i}`, name: `Filler ${i}`, countries: ['JP'] }));
    for (let i = 0; i < filler.length; i += 20)
      await db()
        .insert(shippingZones)
        .values(filler.slice(i, i + 20));
    try {
      const refused = await api('/api/settings/shipping-zones', { method: 'POST', key: await adminKey(), json: { name: 'One too many', countries: ['JP'] } });
      expectError(refused, 409, 'CONFLICT');
      expect(refused.body.error.message).toMatch(/at most 100 shipping zones/);
    } finally {
      for (let i = 0; i < filler.length; i += 50)
        await db()
          .delete(shippingZones)
          .where(
            inArray(
              shippingZones.id,
              filler.slice(i, i + 50).map((z) => z.id),
            ),
          );
    }
  });
});
