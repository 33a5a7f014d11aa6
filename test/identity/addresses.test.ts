import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { addresses } from '../../src/db/schema';
import { MAX_ADDRESSES_PER_CUSTOMER } from '../../src/modules/customers/addresses.service';
import { adminKey, api, db, expectError, insertUser } from '../helpers';

const home = { firstName: 'Ada', lastName: 'Lovelace', line1: '12 St James Sq', city: 'London', postalCode: 'SW1Y 4JH', country: 'GB' };
const add = (key: string, customer: string, json: Record<string, unknown>) => api(`/api/customers/${customer}/addresses`, { method: 'POST', key, json });
const edit = (key: string, customer: string, id: string, json: Record<string, unknown>) => api(`/api/customers/${customer}/addresses/${id}`, { method: 'PATCH', key, json });

async function defaults(customerId: string) {
  const rows = await db().select().from(addresses).where(eq(addresses.userId, customerId));
  return Object.fromEntries(rows.map((r) => [r.id, { shipping: r.isDefaultShipping, billing: r.isDefaultBilling }]));
}

describe('a customer managing its addresses', () => {
  it('adds, lists, reads, changes and deletes an address', async () => {
    const { user, token } = await insertUser();
    const created = await add(token, 'me', home);
    expect(created.status).toBe(201);
    const address = created.body.data;
    expect(address).toMatchObject({ ...home, company: null, line2: null, region: null, phone: null, isDefaultShipping: false, isDefaultBilling: false });
    expect(address.id).toMatch(/^addr_/);
    expect(address).not.toHaveProperty('userId');
    expect(created.headers.get('Location')).toBe(`/api/customers/${user.id}/addresses/${address.id}`);

    const listed = await api(`/api/customers/${user.id}/addresses`, { key: token });
    expect(listed.body.data.map((a: { id: string }) => a.id)).toEqual([address.id]);
    expect(listed.body.pagination).toMatchObject({ page: 1, total: 1 });

    expect((await api(`/api/customers/me/addresses/${address.id}?fields=id,city`, { key: token })).body.data).toEqual({ id: address.id, city: 'London' });

    const changed = await edit(token, 'me', address.id, { line2: 'Flat 3', company: null, country: 'IE', city: 'Dublin' });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ id: address.id, line2: 'Flat 3', country: 'IE', city: 'Dublin', line1: home.line1 });
    expect((await api(`/api/customers/me/addresses/${address.id}`, { key: token })).body.data.city).toBe('Dublin');

    const removed = await api(`/api/customers/me/addresses/${address.id}`, { method: 'DELETE', key: token });
    expect(removed.status).toBe(204);
    expectError(await api(`/api/customers/me/addresses/${address.id}`, { key: token }), 404, 'NOT_FOUND');
    expectError(await api(`/api/customers/me/addresses/${address.id}`, { method: 'DELETE', key: token }), 404, 'NOT_FOUND');
  });

  it('validates the body with 422, listing every invalid field', async () => {
    const { token } = await insertUser();
    const missing = await add(token, 'me', { firstName: 'X' });
    expectError(missing, 422, 'VALIDATION_ERROR');
    expect(missing.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['city', 'country', 'line1']);

    const bad = await add(token, 'me', { ...home, country: 'gb', phone: 'n/a', isDefaultShipping: 'yes', userId: 'user_x', line1: '   ' });
    expectError(bad, 422, 'VALIDATION_ERROR');
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['country', 'isDefaultShipping', 'line1', 'phone', 'userId']);

    for (const country of ['XX', 'ZZ', 'UK', 'EU', 'GBR', 'G']) {
      const res = await add(token, 'me', { ...home, country });
      expectError(res, 422, 'VALIDATION_ERROR');
      expect(res.body.error.details[0].field).toBe('country');
    }
    const { body } = await add(token, 'me', home);
    const nulled = await edit(token, 'me', body.data.id, { line1: null, city: '' });
    expectError(nulled, 422, 'VALIDATION_ERROR');
    expect(nulled.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['city', 'line1']);
  });

  it('keeps one default shipping and one default billing address, each moved by setting it elsewhere', async () => {
    const { user, token } = await insertUser();
    const a = (await add(token, 'me', { ...home, isDefaultShipping: true, isDefaultBilling: true })).body.data.id;
    const b = (await add(token, 'me', { ...home, line1: 'B street', isDefaultShipping: true })).body.data.id;
    expect(await defaults(user.id)).toEqual({ [a]: { shipping: false, billing: true }, [b]: { shipping: true, billing: false } });

    const c = (await add(token, 'me', { ...home, line1: 'C street' })).body.data.id;
    expect((await edit(token, 'me', c, { isDefaultBilling: true })).body.data.isDefaultBilling).toBe(true);
    expect(await defaults(user.id)).toEqual({
      [a]: { shipping: false, billing: false },
      [b]: { shipping: true, billing: false },
      [c]: { shipping: false, billing: true },
    });

    // Clearing a default leaves the others alone.
    await edit(token, 'me', b, { isDefaultShipping: false });
    expect((await defaults(user.id))[c]).toEqual({ shipping: false, billing: true });

    // Another customer's defaults are not touched.
    const other = await insertUser();
    const theirs = (await add(other.token, 'me', { ...home, isDefaultShipping: true })).body.data.id;
    await add(token, 'me', { ...home, isDefaultShipping: true });
    expect((await defaults(other.user.id))[theirs]).toEqual({ shipping: true, billing: false });
  });

  it('holds a customer to 50 addresses, even under concurrent requests', async () => {
    const { user, token } = await insertUser();
    const rows = Array.from({ length: MAX_ADDRESSES_PER_CUSTOMER - 3 }, (_, i) => ({
      id: `addr_FILL${i.toString().padStart(3, '0')}${user.id.slice(-8)}`,
      userId: user.id,
      line1: `${i} Filler Rd`,
      city: 'Leeds',
      country: 'GB',
    }));
    for (let i = 0; i < rows.length; i += 10)
      await db()
        .insert(addresses)
        .values(rows.slice(i, i + 10));

    const results = await Promise.all(Array.from({ length: 6 }, () => add(token, 'me', home)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    for (const r of results.filter((r) => r.status !== 201)) {
      expectError(r, 409, 'CONFLICT');
      expect(r.body.error.message).toMatch(/at most 50 addresses/);
    }
    expect(await db().$count(addresses, eq(addresses.userId, user.id))).toBe(MAX_ADDRESSES_PER_CUSTOMER);
    const listed = await api('/api/customers/me/addresses', { key: token });
    expect(listed.body.data).toHaveLength(MAX_ADDRESSES_PER_CUSTOMER);

    // A refused address with a default set must not have cleared the existing default.
    await db().update(addresses).set({ isDefaultShipping: true }).where(eq(addresses.id, rows[0]!.id));
    expectError(await add(token, 'me', { ...home, isDefaultShipping: true }), 409, 'CONFLICT');
    expect((await defaults(user.id))[rows[0]!.id]!.shipping).toBe(true);
  });
});

describe("reaching someone else's addresses", () => {
  it("answers another customer's address with 404, by either path", async () => {
    const me = await insertUser();
    const other = await insertUser();
    const theirs = (await add(other.token, 'me', home)).body.data.id;

    expectError(await api(`/api/customers/me/addresses/${theirs}`, { key: me.token }), 404, 'NOT_FOUND');
    expectError(await edit(me.token, 'me', theirs, { city: 'Hacked' }), 404, 'NOT_FOUND');
    expectError(await api(`/api/customers/me/addresses/${theirs}`, { method: 'DELETE', key: me.token }), 404, 'NOT_FOUND');
    const path = `/api/customers/${other.user.id}/addresses`;
    expectError(await api(path, { key: me.token }), 404, 'NOT_FOUND');
    expectError(await add(me.token, other.user.id, home), 404, 'NOT_FOUND');
    expectError(await api(`${path}/${theirs}`, { key: me.token }), 404, 'NOT_FOUND');
    expectError(await api(`${path}/${theirs}`, { method: 'DELETE', key: me.token }), 404, 'NOT_FOUND');
    const [row] = await db().select().from(addresses).where(eq(addresses.id, theirs));
    expect(row!.city).toBe('London');
  });

  it('lets staff manage any customer’s addresses, and 404s a customer that does not exist', async () => {
    const key = await adminKey();
    const { user, token } = await insertUser();
    const created = await add(key, user.id, { ...home, isDefaultBilling: true });
    expect(created.status).toBe(201);
    const listed = await api('/api/customers/me/addresses', { key: token });
    expect(listed.body.data.map((a: { id: string }) => a.id)).toEqual([created.body.data.id]);
    expect((await edit(key, user.id, created.body.data.id, { region: 'Greater London' })).body.data.region).toBe('Greater London');
    expect((await api(`/api/customers/${user.id}/addresses/${created.body.data.id}`, { method: 'DELETE', key })).status).toBe(204);

    const ghost = 'user_01ZZZZZZZZZZZZZZZZZZZZZZZZ';
    expectError(await api(`/api/customers/${ghost}/addresses`, { key }), 404, 'NOT_FOUND');
    expectError(await add(key, ghost, home), 404, 'NOT_FOUND');
    const admin = await insertUser({ role: 'admin' });
    expectError(await add(key, admin.user.id, home), 404, 'NOT_FOUND');
  });

  it('needs a credential, and an API key has no `me`', async () => {
    expectError(await api('/api/customers/me/addresses'), 401, 'AUTHENTICATION_ERROR');
    expectError(await add('', 'me', home), 401, 'AUTHENTICATION_ERROR');
    expectError(await api('/api/customers/me/addresses', { key: await adminKey() }), 403, 'AUTHORIZATION_ERROR');
  });
});
