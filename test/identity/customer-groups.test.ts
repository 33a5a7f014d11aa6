import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service';
import { adminKey, api, db, expectError, insertUser, uid } from '../helpers';

let key: string;
beforeAll(async () => {
  key = await adminKey();
});

const addGroup = (json: Record<string, unknown>, k = key) => api('/api/customer-groups', { method: 'POST', key: k, json });
const addMembers = (id: string, customerIds: string[]) => api(`/api/customer-groups/${id}/members`, { method: 'POST', key, json: { customerIds } });
const customer = async (id: string) => (await api(`/api/customers/${id}`, { key })).body.data;

describe('/api/customer-groups', () => {
  it('creates, reads, renames and deletes a group; a duplicate name is 409', async () => {
    const name = `Wholesale ${uid()}`;
    const created = await addGroup({ name, description: 'Trade' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data).toEqual({
      id: expect.stringMatching(/^cgrp_[0-9A-Z]{26}$/),
      name,
      description: 'Trade',
      memberCount: 0,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const id = created.body.data.id;
    expectError(await addGroup({ name }), 409, 'CONFLICT');
    const renamed = await api(`/api/customer-groups/${id}`, { method: 'PATCH', key, json: { name: `${name} EU` } });
    expect(renamed.body.data.name).toBe(`${name} EU`);
    const listed = await api(`/api/customer-groups?q=${encodeURIComponent(name)}`, { key });
    expect(listed.body.data.map((g: { id: string }) => g.id)).toEqual([id]);
    expect((await api(`/api/customer-groups/${id}`, { method: 'DELETE', key })).status).toBe(204);
    expectError(await api(`/api/customer-groups/${id}`, { key }), 404, 'NOT_FOUND');
  });

  it('validates input (422) and needs customers:read to read, customers:write to write', async () => {
    const bad = await addGroup({ name: '', extra: 1 });
    expectError(bad, 422, 'VALIDATION_ERROR');
    const reader = (await createApiKey(db(), { name: 'reader', permissions: ['customers:read'] })).key;
    expect((await api('/api/customer-groups', { key: reader })).status).toBe(200);
    expectError(await addGroup({ name: `G ${uid()}` }, reader), 403, 'AUTHORIZATION_ERROR');
    const { token } = await insertUser();
    expectError(await api('/api/customer-groups', { key: token }), 403, 'AUTHORIZATION_ERROR');
  });

  it('puts a customer in several groups: groupIds on the customer, the group filter, members lists and removal', async () => {
    const a = (await addGroup({ name: `A ${uid()}` })).body.data;
    const b = (await addGroup({ name: `B ${uid()}` })).body.data;
    const { user } = await insertUser();
    const { user: other } = await insertUser();
    const added = await addMembers(a.id, [user.id, other.id]);
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.data.memberCount).toBe(2);
    expect((await addMembers(b.id, [user.id, user.id])).body.data.memberCount).toBe(1);
    // Adding again changes nothing.
    expect((await addMembers(b.id, [user.id])).body.data.memberCount).toBe(1);

    expect((await customer(user.id)).groupIds).toEqual([a.id, b.id].sort());
    expect((await customer(other.id)).groupIds).toEqual([a.id]);
    const inB = await api(`/api/customers?group=${b.id}`, { key });
    expect(inB.body.data.map((c: { id: string }) => c.id)).toEqual([user.id]);
    expect(inB.body.data[0].groupIds).toEqual([a.id, b.id].sort());
    const members = await api(`/api/customer-groups/${a.id}/members?sort=email`, { key });
    expect(members.body.data.map((c: { id: string }) => c.id).sort()).toEqual([user.id, other.id].sort());
    expect(members.body.pagination.total).toBe(2);

    expect((await api(`/api/customer-groups/${a.id}/members/${user.id}`, { method: 'DELETE', key })).status).toBe(204);
    expect((await customer(user.id)).groupIds).toEqual([b.id]);
    expectError(await api(`/api/customer-groups/${a.id}/members/${user.id}`, { method: 'DELETE', key }), 404, 'NOT_FOUND');

    // Deleting a group takes its memberships, not its customers.
    expect((await api(`/api/customer-groups/${b.id}`, { method: 'DELETE', key })).status).toBe(204);
    expect((await customer(user.id)).groupIds).toEqual([]);
  });

  it('refuses ids that are not customers (422, nobody added) and unknown groups (404)', async () => {
    const g = (await addGroup({ name: `C ${uid()}` })).body.data;
    const { user } = await insertUser();
    const { user: staff } = await insertUser({ role: 'admin' });
    const res = await addMembers(g.id, [user.id, staff.id, 'user_nope']);
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(res.body.error.details[0].field).toBe('customerIds');
    expect(res.body.error.details[0].message).toContain(staff.id);
    expect(res.body.error.details[0].message).toContain('user_nope');
    expect((await api(`/api/customer-groups/${g.id}`, { key })).body.data.memberCount).toBe(0);
    expectError(await addMembers('cgrp_nope', [user.id]), 404, 'NOT_FOUND');
    expectError(await api('/api/customer-groups/cgrp_nope/members', { key }), 404, 'NOT_FOUND');
  });
});
