import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service';
import { api, createProduct, db, expectError, insertUser, insertVendorUser, uid } from '../helpers';

let key: string;
let keyPrefix: string;
beforeAll(async () => {
  const created = await createApiKey(db(), { name: 'audit admin', role: 'admin' });
  key = created.key;
  keyPrefix = created.record.prefix;
});

/** The log as an admin reads it, with a query string. */
async function readLog(query: string, k = key) {
  const res = await api(`/api/audit-log?${query}`, { key: k });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as any[];
}

const entriesFor = (resourceId: string) => readLog(`resource_id=${encodeURIComponent(resourceId)}&sort=id:asc`);

describe('who is recorded', () => {
  it('records an API key by id, visible prefix and role, with resource, id, action, request and time', async () => {
    const res = await api('/api/brands', { method: 'POST', key, json: { name: `Brand ${uid()}` }, headers: { 'X-Request-Id': `req-${uid()}` } });
    expect(res.status).toBe(201);
    const [entry, ...rest] = await entriesFor(res.body.data.id);
    expect(rest).toEqual([]);
    expect(entry).toEqual({
      id: expect.any(Number),
      actor: { kind: 'api_key', id: expect.stringMatching(/^key_/), label: keyPrefix, role: 'admin' },
      resource: 'brand',
      resourceId: res.body.data.id,
      action: 'create',
      changes: {
        id: { after: res.body.data.id },
        name: { after: res.body.data.name },
        slug: { after: res.body.data.slug },
        description: { after: null },
        logoUrl: { after: null },
      },
      requestId: res.headers.get('X-Request-Id'),
      method: 'POST',
      path: '/api/brands',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(keyPrefix).toMatch(/^sk_/);
  });

  it('records an admin user (JWT) by id, email and role', async () => {
    const { user, token } = await insertUser({ role: 'admin' });
    const res = await api('/api/categories', { method: 'POST', key: token, json: { name: `Category ${uid()}` } });
    expect(res.status).toBe(201);
    const [entry] = await entriesFor(res.body.data.id);
    expect(entry.actor).toEqual({ kind: 'user', id: user.id, label: user.email, role: 'admin' });
    expect(entry).toMatchObject({ resource: 'category', action: 'create' });
  });

  it("records a vendor user's writes to its own products", async () => {
    const { user, token, vendor } = await insertVendorUser();
    const product = await createProduct(token, { name: `Vendor product ${uid()}` });
    const entries = await readLog(`actor=${user.id}&sort=id:asc`);
    expect(entries.find((e) => e.resource === 'product')).toMatchObject({ resourceId: product.id, changes: { vendorId: { after: vendor.id } } });
    expect(entries.map((e) => `${e.resource}:${e.action}`)).toEqual(expect.arrayContaining(['product:create', 'variant:create']));
    expect(entries.every((e) => e.actor.kind === 'user' && e.actor.label === user.email && e.actor.role === 'vendor')).toBe(true);
  });

  it('does not record customers acting on their own data, and customers cannot read the log', async () => {
    const { user, token } = await insertUser();
    const res = await api('/api/customers/me/addresses', { method: 'POST', key: token, json: { line1: '1 Main St', city: 'Berlin', country: 'DE' } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(await readLog(`actor=${user.id}`)).toEqual([]);
    expectError(await api('/api/audit-log', { key: token }), 403, 'AUTHORIZATION_ERROR');
    expectError(await api('/api/audit-log'), 401, 'AUTHENTICATION_ERROR');
    const limited = await createApiKey(db(), { name: 'reader', permissions: ['products:read'] });
    expectError(await api('/api/audit-log', { key: limited.key }), 403, 'AUTHORIZATION_ERROR');
  });
});

describe('what is recorded', () => {
  it('an update lists only the changed fields, with before and after, typed as JSON', async () => {
    const created = await api('/api/coupons', { method: 'POST', key, json: { code: `A-${uid()}`, type: 'percentage', value: 10 } });
    const id = created.body.data.id;
    const patched = await api(`/api/coupons/${id}`, { method: 'PATCH', key, json: { active: false, description: 'Autumn', productIds: [] } });
    expect(patched.status).toBe(200);
    const [create, update] = await entriesFor(id);
    expect(create.changes.active).toEqual({ after: true });
    // A coupon is a promotions row (migration 0070): its products are the row's `include`.
    expect(create.changes.include).toEqual({ after: { productIds: [], categoryIds: [], brandIds: [] } });
    expect(update.action).toBe('update');
    // include (productIds) did not change, and updatedAt is never listed.
    expect(update.changes).toEqual({ active: { before: true, after: false }, description: { before: null, after: 'Autumn' } });
  });

  it('an update that changes nothing adds no entry; a delete keeps the last values', async () => {
    const brand = (await api('/api/brands', { method: 'POST', key, json: { name: `Brand ${uid()}` } })).body.data;
    expect((await api(`/api/brands/${brand.id}`, { method: 'PATCH', key, json: { name: brand.name } })).status).toBe(200);
    expect((await api(`/api/brands/${brand.id}`, { method: 'DELETE', key })).status).toBe(204);
    const entries = await entriesFor(brand.id);
    expect(entries.map((e) => e.action)).toEqual(['create', 'delete']);
    expect(entries[1].changes.name).toEqual({ before: brand.name });
  });

  it('redacts secrets: password hashes and webhook signing secrets', async () => {
    const user = await api('/api/users', { method: 'POST', key, json: { email: `staff-${uid()}@example.test`, password: 'correct horse battery', role: 'admin' } });
    expect(user.status, JSON.stringify(user.body)).toBe(201);
    const [entry] = await entriesFor(user.body.data.id);
    expect(entry.changes.passwordHash).toEqual({ after: '[redacted]' });
    const hook = await api('/api/webhooks', { method: 'POST', key, json: { url: 'https://example.com/hook', events: ['*'] } });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    const [hookEntry] = await entriesFor(hook.body.data.id);
    expect(hookEntry.changes.secret).toEqual({ after: '[redacted]' });
    // Written with RETURNING (drizzle reads it with raw()), and still answered and audited.
    const minted = await api('/api/settings/api-keys', { method: 'POST', key, json: { name: 'Storefront', permissions: ['products:read'] } });
    expect(minted.status, JSON.stringify(minted.body)).toBe(201);
    const [keyEntry] = await entriesFor(minted.body.data.id);
    expect(keyEntry.changes).toMatchObject({ keyHash: { after: '[redacted]' }, prefix: { after: minted.body.data.prefix }, permissions: { after: ['products:read'] } });
    const text = JSON.stringify(await readLog('limit=100'));
    expect(text).not.toContain(minted.body.data.key);
    expect(text).not.toContain(hook.body.data.secret);
    expect(text).not.toContain('pbkdf2');
  });

  it('a write that fails leaves no entry (the entry is in the same transaction)', async () => {
    const slug = `dup-${uid()}`;
    expect((await api('/api/brands', { method: 'POST', key, json: { name: 'One', slug } })).status).toBe(201);
    const before = (await readLog('resource=brand&limit=100')).length;
    expectError(await api('/api/brands', { method: 'POST', key, json: { name: 'Two', slug } }), 409, 'CONFLICT');
    expect((await readLog('resource=brand&limit=100')).length).toBe(before);
    const context = await env.DB.prepare('SELECT COUNT(*) AS n FROM audit_context').first<{ n: number }>();
    expect(context?.n).toBe(0);
  });

  it('shows who placed, paid and shipped an order, grouped by request', async () => {
    const product = await createProduct(key, { price: 12, stock: 5 });
    const placed = await api('/api/orders', {
      method: 'POST',
      key,
      json: { email: `buyer-${uid()}@example.test`, lines: [{ variantId: product.variants[0].id, quantity: 2 }] },
    });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    const orderId = placed.body.data.id;
    expect((await api(`/api/orders/${orderId}/payments`, { method: 'POST', key, json: { provider: 'manual' } })).status).toBe(201);
    const { token, user } = await insertUser({ role: 'admin' });
    const shipped = await api(`/api/orders/${orderId}/shipments`, { method: 'POST', key: token, json: { carrier: 'UPS', trackingNumber: '1Z999', status: 'shipped' } });
    expect(shipped.status, JSON.stringify(shipped.body)).toBe(201);

    const orderEntries = await readLog(`resource=order&resource_id=${orderId}&sort=id:asc`);
    expect(orderEntries[0]).toMatchObject({ action: 'create', actor: { kind: 'api_key', label: keyPrefix }, method: 'POST', path: '/api/orders' });
    const statuses = orderEntries.filter((e) => e.changes.status?.after).map((e) => [e.changes.status.after, e.actor.kind]);
    expect(statuses).toEqual([
      ['pending', 'api_key'],
      ['processing', 'api_key'],
      ['shipped', 'user'],
    ]);
    expect(orderEntries.at(-1).actor).toMatchObject({ id: user.id, label: user.email });

    // The shipment's request also wrote the shipment and its lines: one request id ties them together.
    const byRequest = await readLog(`request_id=${orderEntries.at(-1).requestId}&sort=id:asc`);
    expect(byRequest.map((e) => e.resource)).toEqual(expect.arrayContaining(['shipment', 'shipment_line', 'order']));
    // The stock the order took is recorded on the variant.
    const stock = await readLog(`resource=variant&resource_id=${product.variants[0].id}&action=update`);
    expect(stock[0].changes.stock).toEqual({ before: 5, after: 3 });
  });
});

describe('content writes', () => {
  it('records drafting and publishing a page, with the status change and rendered HTML', async () => {
    const { user, token } = await insertUser({ role: 'admin' });
    const page = (await api('/api/pages', { method: 'POST', key: token, json: { title: `Page ${uid()}`, body: 'Hi' } })).body.data;
    expect((await api(`/api/pages/${page.id}`, { method: 'PATCH', key, json: { status: 'published' } })).status).toBe(200);
    const [drafted, published] = await entriesFor(page.id);
    expect(drafted).toMatchObject({
      resource: 'page',
      action: 'create',
      actor: { kind: 'user', label: user.email },
      changes: { status: { after: 'draft' }, bodyHtml: { after: '<p>Hi</p>' } },
    });
    expect(published).toMatchObject({ action: 'update', actor: { kind: 'api_key', label: keyPrefix } });
    expect(Object.keys(published.changes).sort()).toEqual(['publishedAt', 'status']);
    expect(published.changes.status).toEqual({ before: 'draft', after: 'published' });
  });
});

describe('reading the log', () => {
  it('lists newest first, filters by actor kind, action and day, and reads one entry', async () => {
    const { token } = await insertUser({ role: 'admin' });
    const brand = (await api('/api/brands', { method: 'POST', key: token, json: { name: `Brand ${uid()}` } })).body.data;
    await api(`/api/brands/${brand.id}`, { method: 'PATCH', key, json: { description: 'x' } });
    const all = await readLog(`resource_id=${brand.id}`);
    expect(all.map((e) => e.action)).toEqual(['update', 'create']);
    expect(all[0].id).toBeGreaterThan(all[1].id);
    expect((await readLog(`resource_id=${brand.id}&actor_kind=user`)).map((e) => e.action)).toEqual(['create']);
    expect((await readLog(`resource_id=${brand.id}&action=update`)).map((e) => e.actor.kind)).toEqual(['api_key']);
    expect(await readLog(`resource_id=${brand.id}&actor=${keyPrefix}`)).toHaveLength(1);
    const today = new Date().toISOString().slice(0, 10);
    expect(await readLog(`resource_id=${brand.id}&created_after=${today}`)).toHaveLength(2);
    expect(await readLog(`resource_id=${brand.id}&created_before=${today}`)).toHaveLength(0);

    const one = await api(`/api/audit-log/${all[0].id}?fields=id,actor(kind),changes`, { key });
    expect(one.body.data).toEqual({ id: all[0].id, actor: { kind: 'api_key' }, changes: { description: { before: null, after: 'x' } } });
    expectError(await api('/api/audit-log/99999999', { key }), 404, 'NOT_FOUND');
    expectError(await api('/api/audit-log/nope', { key }), 404, 'NOT_FOUND');
    expectError(await api('/api/audit-log?action=erase', { key }), 400, 'INVALID_REQUEST');
  });

  it('offers no way to change the log: no write routes, and the database refuses UPDATE and DELETE', async () => {
    await api('/api/brands', { method: 'POST', key, json: { name: `Brand ${uid()}` } });
    const [entry] = await readLog('limit=1');
    for (const method of ['PATCH', 'PUT', 'DELETE']) expectError(await api(`/api/audit-log/${entry.id}`, { method, key, json: {} }), 404, 'NOT_FOUND');
    expectError(await api('/api/audit-log', { method: 'POST', key, json: {} }), 404, 'NOT_FOUND');
    await expect(env.DB.prepare("UPDATE audit_log SET actor_id = 'someone-else' WHERE id = ?").bind(entry.id).run()).rejects.toThrow(/append-only/);
    await expect(env.DB.prepare('DELETE FROM audit_log WHERE id = ?').bind(entry.id).run()).rejects.toThrow(/append-only/);
    await expect(env.DB.prepare('DELETE FROM audit_log').run()).rejects.toThrow(/append-only/);
    expect((await api(`/api/audit-log/${entry.id}`, { key })).body.data).toEqual(entry);
  });
});
