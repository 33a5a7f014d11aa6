import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service';
import { adminKey, api, createProduct, db, expectError, insertUser, insertVendorUser, uid } from '../helpers';

let key: string;
beforeAll(async () => {
  key = await adminKey();
});

async function createVendor(body: Record<string, unknown> = {}) {
  const res = await api('/api/vendors', { method: 'POST', key, json: { name: `Vendor ${uid()}`, ...body } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

describe('POST /api/vendors', () => {
  it('creates a vendor with a slug from its name, active by default', async () => {
    const token = uid();
    const res = await api('/api/vendors', { method: 'POST', key, json: { name: `Acme ${token}`, email: 'Sales@Acme.test', description: 'Tools.' } });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.stringMatching(/^vend_[0-9A-Z]{26}$/),
      name: `Acme ${token}`,
      slug: `acme-${token}`,
      email: 'Sales@Acme.test',
      description: 'Tools.',
      status: 'active',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(res.headers.get('Location')).toBe(`/api/vendors/${res.body.data.id}`);
  });

  it('reports every invalid field with 422', async () => {
    const res = await api('/api/vendors', { method: 'POST', key, json: { email: 'nope', status: 'closed', slug: 'Bad Slug', extra: 1 } });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(res.body.error.details.map((d: any) => d.field).sort()).toEqual(['email', 'extra', 'name', 'slug', 'status']);
  });

  it('refuses a duplicate slug with 409', async () => {
    const v = await createVendor();
    expectError(await api('/api/vendors', { method: 'POST', key, json: { name: 'Other', slug: v.slug } }), 409, 'CONFLICT');
  });

  it('refuses a vendor user (403) and anonymous callers (401)', async () => {
    const { token } = await insertVendorUser();
    expectError(await api('/api/vendors', { method: 'POST', key: token, json: { name: 'Mine' } }), 403, 'AUTHORIZATION_ERROR');
    expectError(await api('/api/vendors', { method: 'POST', json: { name: 'Mine' } }), 401, 'AUTHENTICATION_ERROR');
  });
});

describe('GET /api/vendors', () => {
  it('lists vendors with status and q filters and sorting', async () => {
    const token = uid();
    await createVendor({ name: `L${token} b` });
    await createVendor({ name: `L${token} a`, status: 'suspended' });
    await createVendor({ name: `L${token} c` });
    const all = await api(`/api/vendors?q=L${token}&sort=name:desc&fields=name,status`, { key });
    expect(all.status).toBe(200);
    expect(all.body.data).toEqual([
      { name: `L${token} c`, status: 'active' },
      { name: `L${token} b`, status: 'active' },
      { name: `L${token} a`, status: 'suspended' },
    ]);
    const suspended = await api(`/api/vendors?q=L${token}&status=suspended`, { key });
    expect(suspended.body.pagination.total).toBe(1);
    expectError(await api('/api/vendors?status=closed', { key }), 400, 'INVALID_REQUEST');
  });

  it('refuses a vendor user the list with 403, and a customer too', async () => {
    const { token } = await insertVendorUser();
    expectError(await api('/api/vendors', { key: token }), 403, 'AUTHORIZATION_ERROR');
    const customer = await insertUser();
    expectError(await api('/api/vendors', { key: customer.token }), 403, 'AUTHORIZATION_ERROR');
  });
});

describe('GET /api/vendors/{id}', () => {
  it('lets staff read any vendor by id or slug', async () => {
    const v = await createVendor();
    expect((await api(`/api/vendors/${v.id}`, { key })).body.data).toEqual(v);
    expect((await api(`/api/vendors/${v.slug}?fields=id`, { key })).body.data).toEqual({ id: v.id });
    expectError(await api('/api/vendors/vend_missing', { key }), 404, 'NOT_FOUND');
  });

  it('lets a vendor user read its own vendor; another vendor is 404', async () => {
    const mine = await insertVendorUser();
    const other = await insertVendorUser();
    const own = await api(`/api/vendors/${mine.vendor.id}`, { key: mine.token });
    expect(own.status).toBe(200);
    expect(own.body.data.id).toBe(mine.vendor.id);
    expectError(await api(`/api/vendors/${other.vendor.id}`, { key: mine.token }), 404, 'NOT_FOUND');
    expectError(await api(`/api/vendors/${other.vendor.slug}`, { key: mine.token }), 404, 'NOT_FOUND');
  });

  it('refuses a credential without vendors:read with 403 and no credential with 401', async () => {
    const v = await createVendor();
    const customer = await insertUser();
    expectError(await api(`/api/vendors/${v.id}`, { key: customer.token }), 403, 'AUTHORIZATION_ERROR');
    expectError(await api(`/api/vendors/${v.id}`), 401, 'AUTHENTICATION_ERROR');
    const reader = await createApiKey(db(), { name: 'vendors reader', permissions: ['vendors:read'] });
    expect((await api(`/api/vendors/${v.id}`, { key: reader.key })).status).toBe(200);
  });
});

describe('PATCH /api/vendors/{id}', () => {
  it('updates fields and suspends a vendor', async () => {
    const v = await createVendor();
    const res = await api(`/api/vendors/${v.id}`, { method: 'PATCH', key, json: { status: 'suspended', description: null } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: v.id, status: 'suspended', description: null });
    expect((await api(`/api/vendors/${v.id}`, { key })).body.data.status).toBe('suspended');
  });

  it('refuses a vendor user changing even its own vendor (403)', async () => {
    const { vendor, token } = await insertVendorUser();
    expectError(await api(`/api/vendors/${vendor.id}`, { method: 'PATCH', key: token, json: { name: 'Renamed' } }), 403, 'AUTHORIZATION_ERROR');
  });

  it('404 for an unknown vendor, 409 for a taken slug', async () => {
    const a = await createVendor();
    const b = await createVendor();
    expectError(await api('/api/vendors/vend_missing', { method: 'PATCH', key, json: { name: 'x' } }), 404, 'NOT_FOUND');
    expectError(await api(`/api/vendors/${a.id}`, { method: 'PATCH', key, json: { slug: b.slug } }), 409, 'CONFLICT');
  });
});

describe('DELETE /api/vendors/{id}', () => {
  it('deletes a vendor without users; its products stay, without a vendor', async () => {
    const v = await createVendor();
    const product = await createProduct(key, { vendorId: v.id });
    expect(product.vendor.id).toBe(v.id);
    expect((await api(`/api/vendors/${v.id}`, { method: 'DELETE', key })).status).toBe(204);
    expectError(await api(`/api/vendors/${v.id}`, { key }), 404, 'NOT_FOUND');
    const after = await api(`/api/products/${product.id}`, { key });
    expect(after.status).toBe(200);
    expect(after.body.data.vendor).toBeNull();
  });

  it('refuses deleting a vendor that still has users with 409', async () => {
    const { vendor, token } = await insertVendorUser();
    const res = await api(`/api/vendors/${vendor.id}`, { method: 'DELETE', key });
    expectError(res, 409, 'CONFLICT');
    expect(res.body.error.message).toMatch(/still has 1 user/);
    expect((await api(`/api/vendors/${vendor.id}`, { key: token })).status).toBe(200);
  });

  it('refuses a vendor user deleting its vendor (403)', async () => {
    const { vendor, token } = await insertVendorUser();
    expectError(await api(`/api/vendors/${vendor.id}`, { method: 'DELETE', key: token }), 403, 'AUTHORIZATION_ERROR');
  });
});
