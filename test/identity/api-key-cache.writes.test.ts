import { count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, brands, idempotencyKeys, orders, productVariants } from '../../src/db/schema';
import { auditLog } from '../../src/db/schema/audit';
import { createApiKey, revokeApiKey } from '../../src/modules/api-keys/api-keys.service';
import { adminKey, api, createProduct, db, uid } from '../helpers';

/**
 * A write with a key this isolate confirmed lately runs on the cached principal too
 * (src/middleware/credentials/api-key-cache.ts): the key's check rides in the write's first batch (a read
 * beside a batch that reads, a guard statement at the head of one that writes), nothing a stale
 * key's batch wrote commits, and a key that changed since is answered again from scratch, with
 * the body it was sent.
 */

let admin: string;
let variantId: string;
beforeAll(async () => {
  admin = await adminKey();
  variantId = (await createProduct(admin, { price: 12.5, stock: 1000 })).variants[0].id;
});

const order = (email: string, extra: Record<string, unknown> = {}) => ({ email, lines: [{ variantId, quantity: 1 }], ...extra });
const place = (key: string, body: Record<string, unknown>, headers: Record<string, string> = {}) => api('/api/orders', { method: 'POST', key, json: body, headers });
const ordersFor = async (email: string) => (await db().select().from(orders).where(eq(orders.email, email))).length;
const stock = async () => (await db().select({ stock: productVariants.stock }).from(productVariants).where(eq(productVariants.id, variantId)))[0]!.stock;
const auditRowsOf = async (keyId: string) => (await db().select({ n: count() }).from(auditLog).where(eq(auditLog.actorId, keyId)))[0]!.n;
const roundTrips = (res: { headers: Headers }) => Number(res.headers.get('X-D1-Round-Trips'));

/** A key used a moment ago, so its first request does not also stamp its last use (a round trip of its own). */
async function freshKey(role: string) {
  const created = await createApiKey(db(), { name: `writes ${uid()}`, role });
  await db().update(apiKeys).set({ lastUsedAt: new Date().toISOString() }).where(eq(apiKeys.id, created.record.id));
  return created;
}

async function customRole(permissions: string[]) {
  const created = await api('/api/roles', { method: 'POST', key: admin, json: { name: `writer-${uid()}`.toLowerCase(), permissions } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.data.id as string;
}

const setPermissions = async (role: string, permissions: string[]) => {
  const patched = await api(`/api/roles/${role}`, { method: 'PATCH', key: admin, json: { permissions } });
  expect(patched.status, JSON.stringify(patched.body)).toBe(200);
};

describe('writes with a recently confirmed API key', () => {
  it('POST /api/orders with a cached key and kept quote inputs is one D1 round trip: the key check is a guard in the write', async () => {
    const { key } = await freshKey('admin');
    const first = await place(key, order(`first-${uid()}@example.test`));
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const second = await place(key, order(`second-${uid()}@example.test`));
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    // The first looked the key up on its own; the second checked it inside the order's one batch.
    expect(roundTrips(first)).toBeGreaterThanOrEqual(2);
    expect(roundTrips(second)).toBe(1);
    expect(second.body.data).toMatchObject({ email: expect.stringMatching(/^second-/), status: 'pending', lines: [{ variantId, quantity: 1 }] });
  });

  it('stamps a key last used long ago once: the order after the lookup that stamped it is one round trip too', async () => {
    const { key, record } = await createApiKey(db(), { name: `stale stamp ${uid()}`, role: 'admin' });
    const longAgo = new Date(Date.now() - 3_600_000).toISOString();
    await db().update(apiKeys).set({ lastUsedAt: longAgo }).where(eq(apiKeys.id, record.id));
    expect((await place(key, order(`stamped-${uid()}@example.test`))).status).toBe(201);
    const next = await place(key, order(`after-stamp-${uid()}@example.test`));
    expect(next.status, JSON.stringify(next.body)).toBe(201);
    expect(roundTrips(next)).toBe(1);
    const [row] = await db().select({ lastUsedAt: apiKeys.lastUsedAt }).from(apiKeys).where(eq(apiKeys.id, record.id));
    expect(row!.lastUsedAt! > longAgo).toBe(true);
  });

  it('refuse a key revoked since it was cached with 401, and write nothing: no order, stock, idempotency key or audit row', async () => {
    const { key, record } = await freshKey('admin');
    expect((await place(key, order(`before-${uid()}@example.test`))).status).toBe(201);
    await revokeApiKey(db(), record.id);
    const [stockBefore, auditBefore] = [await stock(), await auditRowsOf(record.id)];
    const email = `revoked-${uid()}@example.test`;
    const res = await place(key, order(email), { 'Idempotency-Key': `revoked-${uid()}` });
    expect(res.status, JSON.stringify(res.body)).toBe(401);
    expect(res.body.error.message).toMatch(/revoked/);
    expect(await ordersFor(email)).toBe(0);
    expect(await stock()).toBe(stockBefore);
    expect(await auditRowsOf(record.id)).toBe(auditBefore);
    expect(
      await db()
        .select()
        .from(idempotencyKeys)
        .where(eq(idempotencyKeys.scope, `key:${record.id}`)),
    ).toEqual([]);
  });

  it('run no write before the check even when the first statement writes: it waits for the check, run alone', async () => {
    const { key, record } = await freshKey('admin');
    expect((await place(key, order(`cached-${uid()}@example.test`))).status).toBe(201);
    await revokeApiKey(db(), record.id);
    const auditBefore = await auditRowsOf(record.id);
    // With its slug given, creating a brand reads nothing first: its insert is the request's first statement.
    const slug = `first-write-${uid()}`;
    const res = await api('/api/brands', { method: 'POST', key, json: { name: `Brand ${slug}`, slug } });
    expect(res.status, JSON.stringify(res.body)).toBe(401);
    expect(await db().select().from(brands).where(eq(brands.slug, slug))).toEqual([]);
    expect(await auditRowsOf(record.id)).toBe(auditBefore);
  });

  it('refuse a key whose role lost the permission since it was cached with 403, and write nothing', async () => {
    const role = await customRole(['orders:*']);
    const { key, record } = await freshKey(role);
    expect((await place(key, order(`allowed-${uid()}@example.test`))).status).toBe(201);
    await setPermissions(role, ['orders:read']);
    const [stockBefore, auditBefore] = [await stock(), await auditRowsOf(record.id)];
    const email = `refused-${uid()}@example.test`;
    const res = await place(key, order(email));
    expect(res.status, JSON.stringify(res.body)).toBe(403);
    expect(res.body.error.code).toBe('AUTHORIZATION_ERROR');
    expect(await ordersFor(email)).toBe(0);
    expect(await stock()).toBe(stockBefore);
    expect(await auditRowsOf(record.id)).toBe(auditBefore);
  });

  it('answer a POST again after a stale check with its original body: exactly one order, counted once by the rate limiter', async () => {
    const role = await customRole(['orders:write', 'products:read']);
    const { key } = await freshKey(role);
    const warm = await place(key, order(`warm-${uid()}@example.test`));
    expect(warm.status).toBe(201);
    // Still allowed to order, but the principal the isolate cached is not the key's any more.
    await setPermissions(role, ['orders:write', 'customers:read']);
    const stockBefore = await stock();
    const email = `again-${uid()}@example.test`;
    const notes = `Leave it with the neighbour ${uid()}`;
    const idempotencyKey = `again-${uid()}`;
    const body = { email, notes, lines: [{ variantId, quantity: 3 }] };
    const res = await place(key, body, { 'Idempotency-Key': idempotencyKey });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ email, notes, lines: [{ variantId, quantity: 3 }] });
    expect(await ordersFor(email)).toBe(1);
    expect(await stock()).toBe(stockBefore - 3);
    // The first try reserved nothing: the second answer holds the key, and a repeat replays it.
    const repeat = await place(key, body, { 'Idempotency-Key': idempotencyKey });
    expect(repeat.status).toBe(201);
    expect(repeat.headers.get('Idempotent-Replayed')).toBe('true');
    expect(repeat.body.data.id).toBe(res.body.data.id);
    expect(await ordersFor(email)).toBe(1);
    // warm, res and repeat: three requests, each counted once (these bodies come without Content-Length,
    // which the body limit buffers into a new Request: the answer again must still be known as one).
    const next = await place(key, order(`next-${uid()}@example.test`));
    const remaining = (r: { headers: Headers }) => Number(r.headers.get('X-RateLimit-Remaining'));
    expect(remaining(res)).toBe(remaining(warm) - 1);
    expect(remaining(repeat)).toBe(remaining(warm) - 2);
    expect(remaining(next)).toBe(remaining(warm) - 3);
  });
});
