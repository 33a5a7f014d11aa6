import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service';
import { adminKey, api, db, expectError, insertUser, uid } from '../helpers';

let key: string;
beforeAll(async () => {
  key = await adminKey();
});

const createRole = (body: Record<string, unknown>, k = key) => api('/api/roles', { method: 'POST', key: k, json: body });

describe('POST /api/roles', () => {
  it('creates a custom role: 201, Location, a role_ id, builtIn false', async () => {
    const name = `editor-${uid()}`;
    const res = await createRole({ name, description: 'Edits the catalogue', permissions: ['products:write', 'categories:*', 'products:write'] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.stringMatching(/^role_[0-9A-Z]{26}$/),
      name,
      description: 'Edits the catalogue',
      permissions: ['products:write', 'categories:*'],
      builtIn: false,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    expect(res.headers.get('Location')).toBe(`/api/roles/${res.body.data.id}`);
  });

  it('refuses an unknown resource or action with 422 naming the entry', async () => {
    const res = await createRole({ name: `typo-${uid()}`, permissions: ['products:read', 'product:write', 'orders:delete', 'nonsense'] });
    expectError(res, 422, 'VALIDATION_ERROR');
    const details = res.body.error.details as { field: string; message: string }[];
    expect(details.map((d) => d.field)).toEqual(['permissions.1', 'permissions.2', 'permissions.3']);
    expect(details[0]!.message).toContain("'product:write'");
    expect(details[1]!.message).toContain("unknown action 'delete'");
  });

  it('accepts * and resource:*', async () => {
    const res = await createRole({ name: `all-${uid()}`, permissions: ['*', 'api-keys:*', 'audit-log:read'] });
    expect(res.status).toBe(201);
  });

  it('requires name and permissions and refuses unknown fields', async () => {
    const res = await createRole({ builtIn: true });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(res.body.error.details.map((d: any) => d.field).sort()).toEqual(['builtIn', 'name', 'permissions']);
  });

  it('refuses a duplicate name with 409, including the built-in names', async () => {
    const name = `dup-${uid()}`;
    expect((await createRole({ name, permissions: [] })).status).toBe(201);
    expectError(await createRole({ name, permissions: [] }), 409, 'CONFLICT');
    expectError(await createRole({ name: 'admin', permissions: [] }), 409, 'CONFLICT');
  });
});

describe('GET /api/roles', () => {
  it('lists the built-in roles and custom ones, filtered by q and sorted by name', async () => {
    const token = uid();
    for (const n of ['b', 'a', 'c']) await createRole({ name: `q${token}-${n}`, permissions: [] });
    const res = await api(`/api/roles?q=q${token}&sort=name:desc&fields=name`, { key });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([{ name: `q${token}-c` }, { name: `q${token}-b` }, { name: `q${token}-a` }]);
    expect(res.body.pagination.total).toBe(3);
    const builtIn = await api('/api/roles?q=vendor', { key });
    expect(builtIn.body.data.find((r: any) => r.id === 'vendor')).toMatchObject({ builtIn: true, permissions: expect.arrayContaining(['products:write']) });
  });

  it('refuses an unknown sort key with 400', async () => {
    expectError(await api('/api/roles?sort=permissions', { key }), 400, 'INVALID_REQUEST');
  });

  it('gets one role by id or by name; unknown is 404', async () => {
    expect((await api('/api/roles/admin', { key })).body.data.permissions).toEqual(['*']);
    const created = (await createRole({ name: `byname-${uid()}`, permissions: ['orders:read'] })).body.data;
    expect((await api(`/api/roles/${created.name}`, { key })).body.data.id).toBe(created.id);
    expectError(await api('/api/roles/role_nope', { key }), 404, 'NOT_FOUND');
  });

  it('needs a credential with roles:read', async () => {
    expectError(await api('/api/roles'), 401, 'AUTHENTICATION_ERROR');
    const writerOnly = await createApiKey(db(), { name: 'products', permissions: ['products:*'] });
    expectError(await api('/api/roles', { key: writerOnly.key }), 403, 'AUTHORIZATION_ERROR');
    const { token } = await insertUser({ role: 'customer' });
    expectError(await api('/api/roles/admin', { key: token }), 403, 'AUTHORIZATION_ERROR');
    const reader = await createApiKey(db(), { name: 'roles reader', permissions: ['roles:read'] });
    expect((await api('/api/roles', { key: reader.key })).status).toBe(200);
    expectError(await createRole({ name: `x-${uid()}`, permissions: [] }, reader.key), 403, 'AUTHORIZATION_ERROR');
  });
});

describe('PATCH /api/roles/{id}', () => {
  it('renames a custom role and replaces its permissions; holders get them on the next request', async () => {
    const role = (await createRole({ name: `r-${uid()}`, permissions: ['orders:read'] })).body.data;
    const holder = await createApiKey(db(), { name: 'holder', role: role.id });
    expectError(await api('/api/roles', { key: holder.key }), 403, 'AUTHORIZATION_ERROR');
    const newName = `renamed-${uid()}`;
    const res = await api(`/api/roles/${role.id}`, { method: 'PATCH', key, json: { name: newName, permissions: ['roles:read'] } });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: role.id, name: newName, permissions: ['roles:read'] });
    expect((await api('/api/roles', { key: holder.key })).status).toBe(200);
  });

  it('refuses renaming or changing the permissions of a built-in role with 409, allows its description', async () => {
    const rename = await api('/api/roles/vendor', { method: 'PATCH', key, json: { name: 'seller' } });
    expectError(rename, 409, 'CONFLICT');
    expect(rename.body.error.message).toMatch(/built-in role and cannot be renamed/);
    const perms = await api('/api/roles/customer', { method: 'PATCH', key, json: { permissions: ['*'] } });
    expectError(perms, 409, 'CONFLICT');
    expect(perms.body.error.message).toMatch(/permissions cannot be changed/);
    expect((await api('/api/roles/customer', { key })).body.data.permissions).toEqual([]);
    const described = await api('/api/roles/customer', { method: 'PATCH', key, json: { description: 'Shoppers.' } });
    expect(described.status).toBe(200);
    expect(described.body.data.description).toBe('Shoppers.');
  });

  it('validates permissions and names on update', async () => {
    const role = (await createRole({ name: `v-${uid()}`, permissions: [] })).body.data;
    expectError(await api(`/api/roles/${role.id}`, { method: 'PATCH', key, json: { permissions: ['products:writ'] } }), 422, 'VALIDATION_ERROR');
    expectError(await api(`/api/roles/${role.id}`, { method: 'PATCH', key, json: { name: 'admin' } }), 409, 'CONFLICT');
    expectError(await api('/api/roles/role_missing', { method: 'PATCH', key, json: { name: 'x' } }), 404, 'NOT_FOUND');
  });
});

describe('DELETE /api/roles/{id}', () => {
  it('deletes an unused custom role', async () => {
    const role = (await createRole({ name: `d-${uid()}`, permissions: [] })).body.data;
    const res = await api(`/api/roles/${role.id}`, { method: 'DELETE', key });
    expect(res.status).toBe(204);
    expect(res.body).toBe('');
    expectError(await api(`/api/roles/${role.id}`, { key }), 404, 'NOT_FOUND');
  });

  it('refuses deleting a built-in role with 409', async () => {
    const res = await api('/api/roles/admin', { method: 'DELETE', key });
    expectError(res, 409, 'CONFLICT');
    expect(res.body.error.message).toMatch(/built-in/);
  });

  it('refuses deleting a role held by a user or by an API key with 409', async () => {
    const byUser = (await createRole({ name: `u-${uid()}`, permissions: [] })).body.data;
    await insertUser({ role: byUser.id });
    const res = await api(`/api/roles/${byUser.id}`, { method: 'DELETE', key });
    expectError(res, 409, 'CONFLICT');
    expect(res.body.error.message).toMatch(/1 user/);

    const byKey = (await createRole({ name: `k-${uid()}`, permissions: [] })).body.data;
    await createApiKey(db(), { name: 'holder', role: byKey.id });
    const res2 = await api(`/api/roles/${byKey.id}`, { method: 'DELETE', key });
    expectError(res2, 409, 'CONFLICT');
    expect(res2.body.error.message).toMatch(/1 API key/);
    expect((await api(`/api/roles/${byKey.id}`, { key })).status).toBe(200);
  });
});
