import { beforeAll, describe, expect, it } from 'vitest';
import { adminKey, api, insertUser } from '../helpers';

// Storage is per file: here the admin users are exactly the ones these tests create, in order.
let key: string;
beforeAll(async () => {
  key = await adminKey();
});

function expectConflict(res: { status: number; body: any }, message: RegExp) {
  expect(res.status, JSON.stringify(res.body)).toBe(409);
  expect(res.body.error.code).toBe('CONFLICT');
  expect(res.body.error.message).toMatch(message);
}

describe('the last active admin user', () => {
  it('cannot be disabled, demoted or deleted; once another admin exists it can', async () => {
    const first = await insertUser({ role: 'admin' });
    const id = first.user.id;
    expectConflict(await api(`/api/users/${id}`, { method: 'PATCH', key, json: { status: 'disabled' } }), /disable the last active admin/);
    const role = (await api('/api/roles', { method: 'POST', key, json: { name: 'ops', permissions: ['orders:*'] } })).body.data;
    expectConflict(await api(`/api/users/${id}`, { method: 'PATCH', key, json: { role: role.id } }), /demote the last active admin/);
    expectConflict(await api(`/api/users/${id}`, { method: 'DELETE', key }), /delete the last active admin/);
    expect((await api(`/api/users/${id}`, { key })).body.data).toMatchObject({ role: 'admin', status: 'active' });

    const second = await insertUser({ role: 'admin' });
    expect((await api(`/api/users/${id}`, { method: 'PATCH', key, json: { role: role.id } })).status).toBe(200);
    expectConflict(await api(`/api/users/${second.user.id}`, { method: 'DELETE', key }), /last active admin/);
  });

  it('does not count disabled admins', async () => {
    const current = (await api('/api/users?role=admin&status=active', { key })).body.data;
    expect(current).toHaveLength(1);
    const spare = await insertUser({ role: 'admin' });
    expect((await api(`/api/users/${spare.user.id}`, { method: 'PATCH', key, json: { status: 'disabled' } })).status).toBe(200);
    expectConflict(await api(`/api/users/${current[0].id}`, { method: 'PATCH', key, json: { status: 'disabled' } }), /last active admin/);
    // Re-enabling the spare makes the other removable.
    expect((await api(`/api/users/${spare.user.id}`, { method: 'PATCH', key, json: { status: 'active' } })).status).toBe(200);
    expect((await api(`/api/users/${current[0].id}`, { method: 'DELETE', key })).status).toBe(204);
  });
});
