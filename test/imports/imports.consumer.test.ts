import { createExecutionContext, createMessageBatch, getQueueResult } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { importChunks, importFailures, imports, products } from '../../src/db/schema';
import worker from '../../src/index';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service';
import type { ProductPlan } from '../../src/modules/imports/plan';
import { IMPORT_MAX_RETRIES } from '../../src/queues/imports';
import { db, uid } from '../helpers';

// A chunk the store cannot write (not a refusal of one product: an error) is retried; once it
// fails for good, its tries spent or D1 refusing the statement itself, the import ends `failed`
// with a reason the merchant can read, instead of waiting for ever.

/** What a merchant's reason must never show: SQL, the database's own error, a stack. */
const INTERNALS = /insert into|select |values \(|Failed query|params:|D1_|SQLITE|Error|\n/i;

/** An import of `chunks` chunks queued by the given plans (chunk n holds plans[n]), as startImport stores it. */
async function queuedImport(plans: ProductPlan[][]) {
  const id = `imp_test${uid()}`;
  const ts = new Date().toISOString();
  const { record } = await createApiKey(db(), { name: 'importer', permissions: ['products:write'] });
  const rows = plans.flat().reduce((sum, plan) => sum + plan.lines.length, 0);
  await db()
    .insert(imports)
    .values({
      id,
      status: 'queued',
      format: 'store',
      actor: `key:${record.id}`,
      vendorId: null,
      rows,
      products: plans.flat().length,
      chunks: plans.length,
      createdAt: ts,
      updatedAt: ts,
    });
  await db()
    .insert(importChunks)
    .values(plans.map((chunk, n) => ({ importId: id, n, plans: chunk })));
  return id;
}

/** Delivers chunk `n`'s message to the consumer as its `attempts`-th try. */
async function deliver(importId: string, n: number, attempts: number) {
  const batch = createMessageBatch('product-imports', [{ id: `m${n}-${attempts}`, timestamp: new Date(), attempts, body: { importId, n } }]);
  const ctx = createExecutionContext();
  await worker.queue(batch, env, ctx);
  return getQueueResult(batch, ctx);
}

const importRow = async (id: string) => (await db().select().from(imports).where(eq(imports.id, id)))[0];

it('retries a chunk that errors, then on the last try ends the import failed, saying where and why', async () => {
  // A price no product write can take (the plan was checked when the file was read; this one was not).
  const id = await queuedImport([[{ lines: [2], sku: null, handle: null, body: { name: 'Broken', price: 'abc' }, given: ['name', 'price'] } as never]]);
  const first = await deliver(id, 0, 1);
  expect(first.explicitAcks).toEqual([]);
  expect(first.retryMessages.map((m: { msgId: string }) => m.msgId)).toEqual(['m0-1']);
  expect(await importRow(id)).toMatchObject({ status: 'queued', rowsDone: 0 });

  const last = await deliver(id, 0, IMPORT_MAX_RETRIES + 1);
  expect(last.explicitAcks).toEqual([`m0-${IMPORT_MAX_RETRIES + 1}`]);
  const failed = await importRow(id);
  expect(failed).toMatchObject({ status: 'failed', rowsDone: 1, failed: 1, created: 0, completedAt: expect.any(String) });
  const why = `the store could not write it in ${IMPORT_MAX_RETRIES + 1} tries: import the file again to retry`;
  expect(failed!.reason).toBe(`stopped at line 2, whose product could not be written (${why}); the products after it were not imported`);
  expect(failed!.reason).not.toMatch(INTERNALS);
  expect(await db().select().from(importFailures).where(eq(importFailures.importId, id))).toEqual([
    { importId: id, line: 2, column: 'row', reason: `could not be written: ${why}` },
  ]);
  expect(await db().select().from(importChunks).where(eq(importChunks.importId, id))).toHaveLength(0);
});

it('ends the import failed at the first try when D1 refuses a statement, counting what the chunk wrote and dropping the chunks after it', async () => {
  const tag = uid();
  const good = { lines: [2], sku: `OK-${tag}`, handle: null, body: { name: `Fine ${tag}`, price: 5, sku: `OK-${tag}` }, given: ['name', 'price', 'sku'] };
  // 150 categories (the checked body takes 50, so only a chunk stored by hand has them): looking them
  // up binds 150 values, and D1 refuses the statement every time it is sent.
  const categoryIds = Array.from({ length: 150 }, (_, i) => `cat_missing${i}`);
  const wide = { lines: [3, 4], sku: null, handle: null, body: { name: `Wide ${tag}`, price: 5, categoryIds }, given: ['name', 'price', 'categoryIds'] };
  const later = { lines: [5], sku: `LATER-${tag}`, handle: null, body: { name: `Later ${tag}`, price: 5, sku: `LATER-${tag}` }, given: ['name', 'price', 'sku'] };
  const id = await queuedImport([[good, wide] as never, [later] as never]);

  const result = await deliver(id, 0, 1);
  expect(result.retryMessages).toEqual([]);
  expect(result.explicitAcks).toEqual(['m0-1']);
  const failed = await importRow(id);
  const why = 'the store puts more values in one database statement than the database takes: a fault of the store, not of the file; report it';
  expect(failed).toMatchObject({ status: 'failed', rows: 4, rowsDone: 3, created: 1, failed: 1, chunksDone: 1 });
  expect(failed!.reason).toBe(`stopped at line 3, whose product could not be written (${why}); the products after it were not imported`);
  expect(failed!.reason).not.toMatch(INTERNALS);
  expect(await db().select().from(importFailures).where(eq(importFailures.importId, id))).toEqual([
    { importId: id, line: 3, column: 'row', reason: `could not be written: ${why}` },
  ]);
  expect(
    (
      await db()
        .select()
        .from(products)
        .where(eq(products.sku, `OK-${tag}`))
    ).map((p) => p.name),
  ).toEqual([`Fine ${tag}`]);
  expect(await db().select().from(importChunks).where(eq(importChunks.importId, id))).toHaveLength(0);

  // The dropped chunk's message finds nothing to do: acknowledged, nothing written or counted.
  const dropped = await deliver(id, 1, 1);
  expect(dropped.explicitAcks).toEqual(['m1-1']);
  expect(
    await db()
      .select()
      .from(products)
      .where(eq(products.sku, `LATER-${tag}`)),
  ).toHaveLength(0);
  expect(await importRow(id)).toEqual(failed);
});
