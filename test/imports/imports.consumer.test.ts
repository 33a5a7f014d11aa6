import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { importChunks, importFailures, imports } from '../../src/db/schema';
import worker from '../../src/index';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service';
import { IMPORT_MAX_RETRIES } from '../../src/queues/imports';
import { db, uid } from '../helpers';

// A chunk the store cannot write (not a refusal of one product: an error) is retried, and on its
// last try counted failed, so the import completes and says why instead of waiting for ever.

it('retries a chunk that errors, then counts it failed on the last try and completes the import', async () => {
  const id = `imp_test${uid()}`;
  const ts = new Date().toISOString();
  const { record } = await createApiKey(db(), { name: 'importer', permissions: ['products:write'] });
  await db()
    .insert(imports)
    .values({ id, status: 'queued', format: 'store', actor: `key:${record.id}`, vendorId: null, rows: 1, products: 1, chunks: 1, createdAt: ts, updatedAt: ts });
  // A price no product write can take (the plan was checked when the file was read; this one was not).
  await db()
    .insert(importChunks)
    .values({ importId: id, n: 0, plans: [{ lines: [2], sku: null, handle: null, body: { name: 'Broken', price: 'abc' }, given: ['name', 'price'] }] });
  const run = async (attempts: number) => {
    const batch = createMessageBatch('product-imports', [{ id: `m${attempts}`, timestamp: new Date(), attempts, body: { importId: id, n: 0 } }]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env, ctx);
    return getQueueResult(batch, ctx);
  };
  const first = await run(1);
  expect(first.explicitAcks).toEqual([]);
  expect(first.retryMessages.map((m: { msgId: string }) => m.msgId)).toEqual(['m1']);
  expect((await db().select().from(imports).where(eq(imports.id, id)))[0]).toMatchObject({ status: 'queued', rowsDone: 0 });

  const last = await run(IMPORT_MAX_RETRIES + 1);
  expect(last.explicitAcks).toEqual([`m${IMPORT_MAX_RETRIES + 1}`]);
  expect((await db().select().from(imports).where(eq(imports.id, id)))[0]).toMatchObject({ status: 'completed', rowsDone: 1, failed: 1, created: 0 });
  const [failure] = await db().select().from(importFailures).where(eq(importFailures.importId, id));
  expect(failure).toMatchObject({ line: 2, column: 'row', reason: expect.stringMatching(/^could not be written \(.+\): import the file again to retry it$/) });
  expect(await db().select().from(importChunks).where(eq(importChunks.importId, id))).toHaveLength(0);
});
