import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { and, eq, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { importChunks, products } from '../../src/db/schema';
import worker from '../../src/index';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service';
import { type ImportMessage, startImport } from '../../src/modules/imports/imports.service';
import { adminKey, api, db, expectError, insertUser, insertVendorUser, uid } from '../helpers';

// The product-imports consumer checks, before each chunk, that the user or key that started the
// import could still import products; once it could not, the import ends failed with the reason and
// nothing more is written. The queue is driven here chunk by chunk: the import's messages are kept
// instead of sent, and handed to the consumer one at a time.

/** Starts an import of `count` simple products (four chunks for 100) as `actor`, keeping its queue messages. */
async function startHeld(who: { actor: string; vendorId: string | null }, count = 100) {
  const tag = uid().toUpperCase();
  const rows = Array.from({ length: count }, (_, i) => `Held ${tag} ${i},5,HELD-${tag}-${i},1`);
  const messages: ImportMessage[] = [];
  const queue = { sendBatch: async (batch: { body: ImportMessage }[]) => void messages.push(...batch.map((m) => m.body)) } as unknown as Queue<ImportMessage>;
  const started = await startImport(db(), queue, ['name,price,sku,variant_stock', ...rows].join('\n'), who);
  expect(started).toMatchObject({ status: 'queued', rows: count, products: count });
  const written = async () =>
    await db()
      .select({ id: products.id, vendorId: products.vendorId })
      .from(products)
      .where(like(products.sku, `HELD-${tag}-%`));
  return { id: started.id, messages, written };
}

/** A role that may import products, and nothing else. */
async function importerRole(): Promise<string> {
  const created = await api('/api/roles', { method: 'POST', key: await adminKey(), json: { name: `importer-${uid()}`, permissions: ['products:read', 'products:write'] } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.data.id;
}

/** Hands one message to the product-imports consumer, as the queue would, and says whether it was acknowledged. */
async function deliver(body: ImportMessage) {
  const batch = createMessageBatch('product-imports', [{ id: `m-${body.importId}-${body.n}`, timestamp: new Date(), attempts: 1, body }]);
  const ctx = createExecutionContext();
  await worker.queue(batch, env, ctx);
  return getQueueResult(batch, ctx);
}

/** Runs the first chunk, makes the actor unable to import (`lose`), runs the rest: only the first chunk's products are written. */
async function stopsAfterFirstChunk(who: { actor: string; vendorId: string | null }, lose: () => Promise<void>, reason: string) {
  const held = await startHeld(who);
  expect(held.messages.map((m) => m.n)).toEqual([0, 1, 2, 3]);
  await deliver(held.messages[0]!);
  expect(await held.written()).toHaveLength(25);

  await lose();
  for (const message of held.messages.slice(1)) expect((await deliver(message)).explicitAcks).toEqual([`m-${message.importId}-${message.n}`]);

  expect(await held.written()).toHaveLength(25);
  const job = (await api(`/api/imports/${held.id}`, { key: await adminKey() })).body.data;
  expect(job).toMatchObject({ status: 'failed', rows: 100, rowsDone: 25, created: 25, failed: 0, completedAt: expect.any(String) });
  expect(job.reason).toContain(reason);
  expect(job.reason).toMatch(/^stopped: the credential that started the import can no longer import products \(.+\); the products not written by then were not imported$/);
  expect(await db().select().from(importChunks).where(eq(importChunks.importId, held.id))).toHaveLength(0);
  return held;
}

describe('an import whose actor can no longer import', () => {
  it('stops writing once its API key is revoked, and says so', async () => {
    const { key, record } = await createApiKey(db(), { name: `importer ${uid()}`, permissions: ['products:write'] });
    await stopsAfterFirstChunk(
      { actor: `key:${record.id}`, vendorId: null },
      async () => {
        expect((await api(`/api/settings/api-keys/${record.id}`, { method: 'DELETE', key: await adminKey() })).status).toBe(204);
        expectError(await api('/api/imports', { key }), 401, 'AUTHENTICATION_ERROR');
      },
      'This API key has been revoked',
    );
  });

  it('stops writing once the user who started it is disabled', async () => {
    const { user } = await insertUser({ role: await importerRole() });
    await stopsAfterFirstChunk(
      { actor: `user:${user.id}`, vendorId: null },
      async () => {
        const res = await api(`/api/users/${user.id}`, { method: 'PATCH', key: await adminKey(), json: { status: 'disabled' } });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      },
      'This account is disabled',
    );
  });

  it("stops writing a vendor user's import once its vendor is suspended", async () => {
    const { vendor, user, token } = await insertVendorUser();
    const held = await stopsAfterFirstChunk(
      { actor: `user:${user.id}`, vendorId: vendor.id },
      async () => {
        const res = await api(`/api/vendors/${vendor.id}`, { method: 'PATCH', key: await adminKey(), json: { status: 'suspended' } });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        expectError(await api('/api/imports', { key: token }), 403, 'AUTHORIZATION_ERROR');
      },
      'The vendor of this account is suspended',
    );
    expect((await held.written()).every((p) => p.vendorId === vendor.id)).toBe(true);
  });

  it("stops writing once the key's role no longer grants products:write", async () => {
    const roleId = await importerRole();
    const { record } = await createApiKey(db(), { name: `importer ${uid()}`, role: roleId });
    await stopsAfterFirstChunk(
      { actor: `key:${record.id}`, vendorId: null },
      async () => {
        const res = await api(`/api/roles/${roleId}`, { method: 'PATCH', key: await adminKey(), json: { permissions: ['products:read'] } });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
      },
      'it lacks products:write',
    );
  });

  it('writes every chunk while the actor still holds', async () => {
    const { record } = await createApiKey(db(), { name: `importer ${uid()}`, permissions: ['products:write'] });
    const held = await startHeld({ actor: `key:${record.id}`, vendorId: null });
    for (const message of held.messages) await deliver(message);
    expect(await held.written()).toHaveLength(100);
    const job = (await api(`/api/imports/${held.id}`, { key: await adminKey() })).body.data;
    expect(job).toMatchObject({ status: 'completed', rowsDone: 100, created: 100, reason: null });
    expect(
      await db()
        .select()
        .from(importChunks)
        .where(and(eq(importChunks.importId, held.id))),
    ).toHaveLength(0);
  });
});
