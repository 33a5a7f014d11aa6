import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service';
import { adminKey, api, db, expectError, insertUser, insertVendor, insertVendorUser, TEST_PASSWORD, uid } from '../helpers';

let key: string;
beforeAll(async () => {
  key = await adminKey();
});

const invalidFields = (res: { body: any }) => (res.body.error.details as { field: string }[]).map((d) => d.field).sort();
const email = () => `staff-${uid()}@example.test`;
const post = (json: Record<string, unknown>, k = key) => api('/api/users', { method: 'POST', key: k, json });
const patch = (id: string, json: Record<string, unknown>, k = key) => api(`/api/users/${id}`, { method: 'PATCH', key: k, json });

describe('POST /api/users', () => {
  it('creates a vendor user: 201, Location, no password hash or token version', async () => {
    const vendor = await insertVendor();
    const address = email();
    const res = await post({ email: address.toUpperCase(), password: TEST_PASSWORD, name: 'Vera', phone: '+1 555 0100', role: 'vendor', vendorId: vendor.id });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.stringMatching(/^user_[0-9A-Z]{26}$/),
      email: address,
      name: 'Vera',
      phone: '+15550100',
      role: 'vendor',
      vendorId: vendor.id,
      status: 'active',
      // Notification preferences (every account has them; staff may get SMS about the store).
      smsOptOut: false,
      marketingEmailOptOut: false,
      lastLoginAt: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(res.headers.get('Location')).toBe(`/api/users/${res.body.data.id}`);
  });

  it('creates an admin and a custom-role user without a vendor', async () => {
    expect((await post({ email: email(), password: TEST_PASSWORD, role: 'admin' })).body.data).toMatchObject({ role: 'admin', vendorId: null });
    const role = (await api('/api/roles', { method: 'POST', key, json: { name: `support-${uid()}`, permissions: ['orders:read'] } })).body.data;
    expect((await post({ email: email(), password: TEST_PASSWORD, role: role.name })).body.data.role).toBe(role.id);
  });

  it('refuses the customer role, an unknown role and wrong vendor combinations with 422', async () => {
    const vendor = await insertVendor();
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ role: 'customer' }, 'role', /customers are managed at \/api\/customers/],
      [{ role: 'role_missing' }, 'role', /no role/],
      [{ role: 'vendor' }, 'vendorId', /required for role vendor/],
      [{ role: 'vendor', vendorId: 'vend_missing' }, 'vendorId', /no vendor/],
      [{ role: 'admin', vendorId: vendor.id }, 'vendorId', /must be null/],
    ];
    for (const [body, field, message] of cases) {
      const res = await post({ email: email(), password: TEST_PASSWORD, ...body });
      expectError(res, 422, 'VALIDATION_ERROR');
      expect(res.body.error.details).toEqual([{ field, code: expect.any(String), message: expect.stringMatching(message) }]);
    }
  });

  it('lists every invalid field', async () => {
    const res = await post({ email: 'not-an-email', password: 'short', phone: 'x', extra: true });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(invalidFields(res)).toEqual(['email', 'extra', 'password', 'phone', 'role']);
  });

  it('refuses a duplicate email, whatever its case, with 409', async () => {
    const address = email();
    expect((await post({ email: address, password: TEST_PASSWORD, role: 'admin' })).status).toBe(201);
    const res = await post({ email: address.toUpperCase(), password: TEST_PASSWORD, role: 'admin' });
    expectError(res, 409, 'CONFLICT');
    expect(res.body.error.details[0].field).toBe('email');
  });

  it('refuses granting a role whose permissions the credential lacks (403)', async () => {
    const usersOnly = await createApiKey(db(), { name: 'user manager', permissions: ['users:*', 'orders:read'] });
    const res = await post({ email: email(), password: TEST_PASSWORD, role: 'admin' }, usersOnly.key);
    expectError(res, 403, 'AUTHORIZATION_ERROR');
    expect(res.body.error.message).toMatch(/cannot grant role 'admin'/);
    const role = (await api('/api/roles', { method: 'POST', key, json: { name: `reader-${uid()}`, permissions: ['orders:read'] } })).body.data;
    expect((await post({ email: email(), password: TEST_PASSWORD, role: role.id }, usersOnly.key)).status).toBe(201);
  });

  it('needs users:write', async () => {
    const { token } = await insertVendorUser();
    expectError(await post({ email: email(), password: TEST_PASSWORD, role: 'admin' }, token), 403, 'AUTHORIZATION_ERROR');
    expectError(await api('/api/users', { method: 'POST', json: {} }), 401, 'AUTHENTICATION_ERROR');
  });
});

describe('GET /api/users', () => {
  it('lists staff users, never customers, with role, vendor, status and q filters', async () => {
    const token = uid();
    const vendor = await insertVendor();
    const a = await insertUser({ role: 'vendor', vendorId: vendor.id, email: `a-${token}@example.test` });
    const b = await insertUser({ role: 'admin', email: `b-${token}@example.test` });
    await insertUser({ role: 'customer', email: `c-${token}@example.test` });
    await patch(b.user.id, { status: 'disabled' });

    const all = await api(`/api/users?q=${token}&sort=email:desc&fields=email`, { key });
    expect(all.status).toBe(200);
    expect(all.body.data).toEqual([{ email: `b-${token}@example.test` }, { email: `a-${token}@example.test` }]);
    expect(all.body.pagination.total).toBe(2);
    const ids = (r: any) => r.body.data.map((u: any) => u.id);
    expect(ids(await api(`/api/users?q=${token}&role=vendor`, { key }))).toEqual([a.user.id]);
    expect(ids(await api(`/api/users?vendor=${vendor.slug}`, { key }))).toEqual([a.user.id]);
    expect(ids(await api(`/api/users?q=${token}&status=disabled`, { key }))).toEqual([b.user.id]);
    expect(ids(await api(`/api/users?q=${token}&role=customer`, { key }))).toEqual([]);
    const first = await api('/api/users?fields=passwordHash', { key });
    expectError(first, 400, 'INVALID_REQUEST');
  });

  it('refuses a vendor user and a credential without users:read with 403', async () => {
    const { token } = await insertVendorUser();
    expectError(await api('/api/users', { key: token }), 403, 'AUTHORIZATION_ERROR');
    const other = await createApiKey(db(), { name: 'products', permissions: ['products:*'] });
    expectError(await api('/api/users', { key: other.key }), 403, 'AUTHORIZATION_ERROR');
  });
});

describe('GET /api/users/{id}', () => {
  it('shows a staff user to staff; a customer is 404 here', async () => {
    const { user } = await insertUser({ role: 'admin' });
    const res = await api(`/api/users/${user.id}`, { key });
    expect(res.body.data).toMatchObject({ id: user.id, role: 'admin' });
    expect(res.body.data).not.toHaveProperty('passwordHash');
    const customer = await insertUser();
    expectError(await api(`/api/users/${customer.user.id}`, { key }), 404, 'NOT_FOUND');
  });

  it('lets a vendor user read itself; any other user is 404 to it', async () => {
    const mine = await insertVendorUser();
    const other = await insertVendorUser();
    const admin = await insertUser({ role: 'admin' });
    expect((await api(`/api/users/${mine.user.id}`, { key: mine.token })).body.data.vendorId).toBe(mine.vendor.id);
    expectError(await api(`/api/users/${other.user.id}`, { key: mine.token }), 404, 'NOT_FOUND');
    expectError(await api(`/api/users/${admin.user.id}`, { key: mine.token }), 404, 'NOT_FOUND');
  });
});

describe('PATCH /api/users/{id}', () => {
  it('changes name, phone and role; leaving role vendor drops the vendor', async () => {
    const { user } = await insertVendorUser();
    const res = await patch(user.id, { name: 'New Name', phone: null, role: 'admin' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ name: 'New Name', phone: null, role: 'admin', vendorId: null });
  });

  it('moves a vendor user to another vendor, and refuses a vendor for a non-vendor role', async () => {
    const { user } = await insertVendorUser();
    const next = await insertVendor();
    expect((await patch(user.id, { vendorId: next.id })).body.data.vendorId).toBe(next.id);
    expectError(await patch(user.id, { vendorId: null }), 422, 'VALIDATION_ERROR');
    expectError(await patch(user.id, { role: 'admin', vendorId: next.id }), 422, 'VALIDATION_ERROR');
    expectError(await patch(user.id, { role: 'customer' }), 422, 'VALIDATION_ERROR');
  });

  it('setting a password retires the old tokens', async () => {
    const { user, token } = await insertUser({ role: 'admin' });
    expect((await api(`/api/users/${user.id}`, { key: token })).status).toBe(200);
    expect((await patch(user.id, { password: 'a brand new secret' })).status).toBe(200);
    expectError(await api(`/api/users/${user.id}`, { key: token }), 401, 'AUTHENTICATION_ERROR');
  });

  it('disabling a user makes its tokens 401 on the next request, for good: re-enabling does not revive them', async () => {
    const { user, token } = await insertVendorUser();
    expect((await api(`/api/users/${user.id}`, { key: token })).status).toBe(200);
    expect((await patch(user.id, { status: 'disabled' })).body.data.status).toBe('disabled');
    expectError(await api(`/api/users/${user.id}`, { key: token }), 401, 'AUTHENTICATION_ERROR');
    expect((await patch(user.id, { status: 'active' })).body.data.status).toBe('active');
    expectError(await api(`/api/users/${user.id}`, { key: token }), 401, 'AUTHENTICATION_ERROR');
  });

  it('refuses a user disabling itself (409) but lets it rename itself', async () => {
    await insertUser({ role: 'admin' });
    const me = await insertUser({ role: 'admin' });
    const res = await patch(me.user.id, { status: 'disabled' }, me.token);
    expectError(res, 409, 'CONFLICT');
    expect(res.body.error.message).toMatch(/cannot disable itself/);
    expect((await patch(me.user.id, { name: 'Me' }, me.token)).status).toBe(200);
  });

  it('404 for an unknown user or a customer', async () => {
    expectError(await patch('user_missing', { name: 'x' }), 404, 'NOT_FOUND');
    const customer = await insertUser();
    expectError(await patch(customer.user.id, { name: 'x' }), 404, 'NOT_FOUND');
  });
});

describe('DELETE /api/users/{id}', () => {
  it('deletes a user; its token stops working', async () => {
    const { user, token } = await insertVendorUser();
    expect((await api(`/api/users/${user.id}`, { method: 'DELETE', key })).status).toBe(204);
    expectError(await api(`/api/users/${user.id}`, { key }), 404, 'NOT_FOUND');
    expectError(await api(`/api/vendors/${user.vendorId}`, { key: token }), 401, 'AUTHENTICATION_ERROR');
  });

  it('refuses a user deleting itself (409)', async () => {
    await insertUser({ role: 'admin' });
    const me = await insertUser({ role: 'admin' });
    const res = await api(`/api/users/${me.user.id}`, { method: 'DELETE', key: me.token });
    expectError(res, 409, 'CONFLICT');
    expect(res.body.error.message).toMatch(/cannot delete itself/);
  });

  it('404 for a customer id', async () => {
    const customer = await insertUser();
    expectError(await api(`/api/users/${customer.user.id}`, { method: 'DELETE', key }), 404, 'NOT_FOUND');
  });
});
