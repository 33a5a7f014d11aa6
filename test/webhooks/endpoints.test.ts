import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { events, webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../src/db/schema';
import { EVENT_TYPES } from '../../src/modules/registry';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service';
import { adminKey, api, db, expectError, insertUser, uid } from '../helpers';

let key: string;
beforeAll(async () => {
  key = await adminKey();
});

const PATH = '/api/webhooks';
const receiver = () => `https://hooks.example.com/${uid()}`;
const create = (json: Record<string, unknown>, k = key) => api(PATH, { method: 'POST', key: k, json: { url: receiver(), events: ['order.placed'], ...json } });
const patch = (id: string, json: unknown) => api(`${PATH}/${id}`, { method: 'PATCH', key, json });
const storedRow = async (id: string) => (await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)))[0]!;

/** Calls the app as deployed: WEBHOOK_ALLOW_PRIVATE_URLS unset, as in production. */
async function asDeployed(path: string, json: unknown, method = 'POST') {
  const ctx = createExecutionContext();
  const { WEBHOOK_ALLOW_PRIVATE_URLS: _flag, ...production } = env;
  const request = new Request(`http://store.test${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(json),
  });
  const res = await createApp().fetch(request, production, ctx);
  await waitOnExecutionContext(ctx);
  return { status: res.status, body: (await res.json()) as any };
}

describe('POST /api/webhooks', () => {
  it('creates an endpoint: 201, Location, the secret this once and never again', async () => {
    const url = receiver();
    const res = await create({ url, events: ['order.placed', 'order.cancelled'], description: 'Warehouse' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const data = res.body.data;
    expect(data).toEqual({
      id: expect.stringMatching(/^we_[0-9A-Z]{26}$/),
      url,
      events: ['order.placed', 'order.cancelled'],
      description: 'Warehouse',
      active: true,
      failingSince: null,
      disabledAt: null,
      disabledReason: null,
      secretRotation: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    expect(res.headers.get('Location')).toBe(`${PATH}/${data.id}`);
    expect((await storedRow(data.id)).secret).toBe(data.secret);

    const read = await api(`${PATH}/${data.id}`, { key });
    expect(read.status).toBe(200);
    const { secret: _secret, ...shown } = data;
    expect(read.body.data).toEqual(shown);
    const listed = await api(`${PATH}?q=${encodeURIComponent(url.slice(-8))}`, { key });
    expect(listed.body.data).toEqual([shown]);
    expect(JSON.stringify([read.body, listed.body])).not.toContain(data.secret);
    expect(JSON.stringify([read.body, listed.body])).not.toMatch(/secret"|previousSecret"/);
  });

  it('takes ["*"], drops duplicate kinds, and can start inactive', async () => {
    const all = await create({ events: ['*'] });
    expect(all.body.data.events).toEqual(['*']);
    const dup = await create({ events: ['order.placed', 'inventory.low', 'order.placed'], active: false });
    expect(dup.status).toBe(201);
    expect(dup.body.data).toMatchObject({ events: ['order.placed', 'inventory.low'], active: false });
  });

  it('accepts every kind of EVENT_TYPES', async () => {
    const res = await create({ events: [...EVENT_TYPES] });
    expect(res.status).toBe(201);
    expect(res.body.data.events).toEqual([...EVENT_TYPES]);
  });

  it.each([
    [{ events: ['order.placed', 'order.exploded', 'nope'] }, 'events', 'unknown event kinds: order.exploded, nope'],
    [{ events: ['*', 'order.placed'] }, 'events', 'alone'],
    [{ events: ['ping'] }, 'events', "'ping' cannot be subscribed to"],
    [{ events: [] }, 'events', ''],
    [{ events: 'order.placed' }, 'events', ''],
    [{ url: 'ftp://example.com/x' }, 'url', 'must use http or https'],
    [{ url: 'https://u:p@example.com/' }, 'url', 'credentials'],
    [{ url: 'https://example.com/#top' }, 'url', 'fragment'],
    [{ url: `https://example.com/${'x'.repeat(2050)}` }, 'url', 'at most 2048'],
    [{ url: 42 }, 'url', ''],
    [{ secret: 'whsec_mine' }, 'secret', 'is not a known field'],
    [{ active: 'yes' }, 'active', ''],
  ])('refuses %j with 422 on %s', async (json, field, message) => {
    const res = await create(json);
    expectError(res, 422, 'VALIDATION_ERROR');
    const entry = res.body.error.details.find((d: { field: string }) => d.field === field);
    expect(entry, JSON.stringify(res.body.error.details)).toBeDefined();
    expect(entry.message).toContain(message);
  });

  it('needs url and events, and reports every invalid field at once', async () => {
    const res = await api(PATH, { method: 'POST', key, json: { description: 7 } });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(res.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['description', 'events', 'url']);
  });

  it('accepts http and loopback receivers while WEBHOOK_ALLOW_PRIVATE_URLS is true (tests and local dev)', async () => {
    for (const url of ['http://127.0.0.1:8788/hook', 'http://localhost:3000/', 'https://[::1]/x', 'https://10.1.2.3/']) {
      const res = await create({ url });
      expect(res.status, `${url}: ${JSON.stringify(res.body)}`).toBe(201);
    }
  });

  it('refuses http and private hosts as deployed (the flag unset), naming why, on create and patch', async () => {
    for (const [url, why] of [
      ['http://example.com/hook', 'must use https'],
      ['https://127.0.0.1/hook', '127.0.0.0/8'],
      ['https://169.254.169.254/latest', '169.254.0.0/16'],
      ['https://[::ffff:10.0.0.1]/', '10.0.0.0/8'],
      ['https://db.internal/', '.internal'],
    ]) {
      const res = await asDeployed(PATH, { url, events: ['*'] });
      expectError(res, 422, 'VALIDATION_ERROR');
      expect(res.body.error.details).toEqual([{ field: 'url', code: 'invalid_value', message: expect.stringContaining(why!) }]);
    }
    const ok = await asDeployed(PATH, { url: 'https://hooks.example.com/in', events: ['*'] });
    expect(ok.status).toBe(201);
    const refused = await asDeployed(`${PATH}/${ok.body.data.id}`, { url: 'https://localhost/x' }, 'PATCH');
    expectError(refused, 422, 'VALIDATION_ERROR');
    expect(refused.body.error.details).toEqual([{ field: 'url', code: 'invalid_value', message: expect.stringContaining('localhost') }]);
  });
});

describe('who may manage webhooks', () => {
  it('is 401 without a credential and 403 for customers and keys without webhooks permissions', async () => {
    const { body } = await create({});
    const id = body.data.id;
    expectError(await api(PATH), 401, 'AUTHENTICATION_ERROR');
    expectError(await api(PATH, { method: 'POST', json: { url: receiver(), events: ['*'] } }), 401, 'AUTHENTICATION_ERROR');
    const { token } = await insertUser({ role: 'customer' });
    const productsKey = (await createApiKey(db(), { name: 'catalogue', permissions: ['products:write'] })).key;
    for (const credential of [token, productsKey]) {
      expectError(await api(PATH, { key: credential }), 403, 'AUTHORIZATION_ERROR');
      expectError(await api(`${PATH}/${id}`, { key: credential }), 403, 'AUTHORIZATION_ERROR');
      expectError(await create({}, credential), 403, 'AUTHORIZATION_ERROR');
      expectError(await api(`${PATH}/${id}`, { method: 'DELETE', key: credential }), 403, 'AUTHORIZATION_ERROR');
      expectError(await api(`${PATH}/${id}/rotate-secret`, { method: 'POST', key: credential, json: {} }), 403, 'AUTHORIZATION_ERROR');
      expectError(await api(`${PATH}/${id}/test`, { method: 'POST', key: credential, json: {} }), 403, 'AUTHORIZATION_ERROR');
      expectError(await api(`${PATH}/${id}/deliveries`, { key: credential }), 403, 'AUTHORIZATION_ERROR');
    }
  });

  it('lets webhooks:read read but not write', async () => {
    const { body } = await create({});
    const reader = (await createApiKey(db(), { name: 'reader', permissions: ['webhooks:read'] })).key;
    expect((await api(`${PATH}/${body.data.id}`, { key: reader })).status).toBe(200);
    expect((await api(`${PATH}/${body.data.id}/deliveries`, { key: reader })).status).toBe(200);
    expectError(await api(`${PATH}/${body.data.id}`, { method: 'PATCH', key: reader, json: { active: false } }), 403, 'AUTHORIZATION_ERROR');
    expectError(await api(`${PATH}/${body.data.id}/deliveries/whd_x/redeliver`, { method: 'POST', key: reader }), 403, 'AUTHORIZATION_ERROR');
  });
});

describe('GET /api/webhooks', () => {
  it('filters by active and q, sorts by url, pages, and counts in SQL', async () => {
    const tag = uid();
    const made = [];
    for (const [name, active] of [
      ['b', true],
      ['a', false],
      ['c', true],
    ] as const) {
      made.push((await create({ url: `https://${name}-${tag}.example.com/h`, description: `batch ${tag}`, active })).body.data);
    }
    const byUrl = await api(`${PATH}?q=${tag}&sort=url:asc&limit=2`, { key });
    expect(byUrl.status).toBe(200);
    expect(byUrl.body.data.map((e: { url: string }) => e.url[8])).toEqual(['a', 'b']);
    expect(byUrl.body.pagination).toEqual({ page: 1, limit: 2, total: 3, totalPages: 2, hasNext: true, hasPrev: false });
    const active = await api(`${PATH}?q=${tag}&active=true&sort=created_at:desc`, { key });
    expect(active.body.data.map((e: { id: string }) => e.id)).toEqual([made[2].id, made[0].id]);
    const byDescription = await api(`${PATH}?q=batch%20${tag}&active=false&fields=id,active`, { key });
    expect(byDescription.body.data).toEqual([{ id: made[1].id, active: false }]);
  });

  it.each(['active=maybe', 'sort=secret', 'fields=secret', 'limit=0', 'url=x'])('answers %s with 400', async (query) => {
    expectError(await api(`${PATH}?${query}`, { key }), 400, 'INVALID_REQUEST');
  });
});

describe('GET, PATCH and DELETE /api/webhooks/{id}', () => {
  it('is 404 for an unknown id', async () => {
    expectError(await api(`${PATH}/we_nope`, { key }), 404, 'NOT_FOUND');
    expectError(await patch('we_nope', { active: false }), 404, 'NOT_FOUND');
    expectError(await api(`${PATH}/we_nope`, { method: 'DELETE', key }), 404, 'NOT_FOUND');
    expectError(await api(`${PATH}/we_nope/rotate-secret`, { method: 'POST', key, json: {} }), 404, 'NOT_FOUND');
  });

  it('changes url, events, description and active, validating each', async () => {
    const { body } = await create({ description: 'old' });
    const id = body.data.id;
    const url = receiver();
    const res = await patch(id, { url, events: ['*'], description: null, active: false });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ id, url, events: ['*'], description: null, active: false });
    expect(res.body.data.secret).toBeUndefined();
    const invalid = await patch(id, { events: ['order.placed', 'bogus'], url: 'https://a@b.example/', extra: 1 });
    expectError(invalid, 422, 'VALIDATION_ERROR');
    expect(invalid.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['events', 'extra', 'url']);
    const empty = await patch(id, {});
    expect(empty.body.data).toEqual(res.body.data);
  });

  it('re-activating an endpoint the store disabled clears disabledAt, disabledReason and failingSince', async () => {
    const { body } = await create({});
    const id = body.data.id;
    const when = new Date(Date.now() - 3 * 86_400_000).toISOString();
    await db()
      .update(webhookEndpoints)
      .set({ active: false, disabledAt: new Date().toISOString(), disabledReason: 'failing for 72 hours', failingSince: when })
      .where(eq(webhookEndpoints.id, id));
    const shown = await api(`${PATH}/${id}`, { key });
    expect(shown.body.data).toMatchObject({ active: false, disabledReason: 'failing for 72 hours', failingSince: when, disabledAt: expect.any(String) });
    const res = await patch(id, { active: true });
    expect(res.body.data).toMatchObject({ active: true, disabledAt: null, disabledReason: null, failingSince: null });
  });

  it('deletes with 204, and its deliveries and attempts go with it', async () => {
    const { body } = await create({});
    const id = body.data.id;
    const ts = new Date().toISOString();
    const eventId = `evt_${uid()}`;
    await db().insert(events).values({ id: eventId, type: 'order.placed', data: {}, createdAt: ts, publishedAt: ts });
    const deliveryId = `whd_${uid()}`;
    await db().insert(webhookDeliveries).values({ id: deliveryId, endpointId: id, eventId, eventType: 'order.placed', attempts: 1 });
    await db()
      .insert(webhookAttempts)
      .values({ id: `wha_${uid()}`, deliveryId, attempt: 1, startedAt: ts, durationMs: 5, statusCode: 500 });
    const res = await api(`${PATH}/${id}`, { method: 'DELETE', key });
    expect(res.status).toBe(204);
    expect(res.body).toBe('');
    expectError(await api(`${PATH}/${id}`, { key }), 404, 'NOT_FOUND');
    expect(await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, id))).toEqual([]);
    expect(await db().select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, deliveryId))).toEqual([]);
  });
});

describe('POST /api/webhooks/{id}/rotate-secret', () => {
  it('returns a new secret once and keeps the previous one signing for 24 hours by default', async () => {
    const { body } = await create({});
    const { id, secret: first } = body.data;
    const before = Date.now();
    const res = await api(`${PATH}/${id}/rotate-secret`, { method: 'POST', key });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { secret, secretRotation } = res.body.data;
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(first);
    const expires = Date.parse(secretRotation.previousSecretExpiresAt);
    expect(expires - before).toBeGreaterThanOrEqual(24 * 3_600_000 - 1000);
    expect(expires - before).toBeLessThanOrEqual(24 * 3_600_000 + 5000);
    const row = await storedRow(id);
    expect({ secret: row.secret, previousSecret: row.previousSecret }).toEqual({ secret, previousSecret: first });
    const read = await api(`${PATH}/${id}`, { key });
    expect(read.body.data.secretRotation).toEqual(secretRotation);
    expect(JSON.stringify(read.body)).not.toContain(secret);
    expect(JSON.stringify(read.body)).not.toContain(first);
  });

  it('takes overlapHours; 0 drops the previous secret at once; a second rotation retires the oldest', async () => {
    const { body } = await create({});
    const id = body.data.id;
    const two = await api(`${PATH}/${id}/rotate-secret`, { method: 'POST', key, json: { overlapHours: 2 } });
    const hours = (Date.parse(two.body.data.secretRotation.previousSecretExpiresAt) - Date.now()) / 3_600_000;
    expect(hours).toBeGreaterThan(1.99);
    expect(hours).toBeLessThanOrEqual(2);
    const again = await api(`${PATH}/${id}/rotate-secret`, { method: 'POST', key, json: { overlapHours: 168 } });
    expect((await storedRow(id)).previousSecret).toBe(two.body.data.secret);
    expect(again.body.data.secretRotation).not.toBeNull();
    const zero = await api(`${PATH}/${id}/rotate-secret`, { method: 'POST', key, json: { overlapHours: 0 } });
    expect(zero.body.data.secretRotation).toBeNull();
    const row = await storedRow(id);
    expect(row).toMatchObject({ secret: zero.body.data.secret, previousSecret: null, previousSecretExpiresAt: null });
  });

  it('shows no rotation once the previous secret has expired', async () => {
    const { body } = await create({});
    await db()
      .update(webhookEndpoints)
      .set({ previousSecret: 'whsec_old', previousSecretExpiresAt: new Date(Date.now() - 1000).toISOString() })
      .where(eq(webhookEndpoints.id, body.data.id));
    expect((await api(`${PATH}/${body.data.id}`, { key })).body.data.secretRotation).toBeNull();
  });

  it.each([{ overlapHours: -1 }, { overlapHours: 169 }, { overlapHours: 1.5 }, { overlapHours: '24' }, { overlap: 1 }])('refuses %j with 422', async (json) => {
    const { body } = await create({});
    expectError(await api(`${PATH}/${body.data.id}/rotate-secret`, { method: 'POST', key, json }), 422, 'VALIDATION_ERROR');
  });
});
