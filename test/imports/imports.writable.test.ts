import { env } from 'cloudflare:workers';
import { like } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { products } from '../../src/db/schema';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service';
import { dryRun, startImport } from '../../src/modules/imports/imports.service';
import { TOO_MANY_VALUES } from '../../src/modules/imports/writable';
import { adminKey, db, uid } from '../helpers';
import { finished, upload } from './import-client';

// The dry run checks the very statements the real import will send against D1's limit of bound
// values (refuseUnwritable), so it cannot answer yes to a file whose write D1 would refuse. No
// product of today's builders binds more than D1's 100 values a statement
// (test/d1/bound-parameters.test.ts), so a lower limit stands in for a write D1 would refuse: at 50,
// the insert of the tee's four variants (4 × 14 values) is one statement too many.

it('a dry run reports a product whose write would fail, and the real import fails it the same way without queueing it', async () => {
  const key = await adminKey();
  const tag = uid().toUpperCase();
  const csv = [
    'handle,name,price,option1_name,option1_value,variant_sku',
    ...['S', 'M', 'L', 'XL'].map((size, i) => `tee-${tag},${i ? '' : `Tee ${tag}`},20,Size,${size},TEE-${tag}-${size}`),
    `,Mug ${tag},12,,,MUG-${tag}`,
  ].join('\n');
  const failure = { line: 2, column: 'row', reason: `could not be written: ${TOO_MANY_VALUES}` };
  const written = async () =>
    (
      await db()
        .select({ sku: products.sku })
        .from(products)
        .where(like(products.sku, `%-${tag}`))
    ).map((p) => p.sku);

  // At D1's own limit both products can be written.
  const allowed = await upload(key, csv, '?dry_run=true');
  expect(allowed.status, JSON.stringify(allowed.body)).toBe(200);
  expect(allowed.body.data).toMatchObject({ rows: 5, products: 2, create: 2, failed: 0, failures: [] });

  const dry = await dryRun(db(), csv, { maxBoundParameters: 50 });
  expect(dry).toMatchObject({ rows: 5, products: 2, create: 1, failed: 1, failedRows: 4, failures: [failure] });
  expect(await written()).toEqual([]);

  const { record } = await createApiKey(db(), { name: 'importer', role: 'admin' });
  const started = await startImport(db(), env.IMPORTS_QUEUE, csv, { actor: `key:${record.id}`, vendorId: null }, { maxBoundParameters: 50 });
  expect(started).toMatchObject({ status: 'queued', rows: 5, rowsDone: 4, failed: 1, failures: [failure] });
  const { done } = await finished(key, started.id);
  expect(done).toMatchObject({ status: 'completed', rowsDone: 5, created: 1, failed: 1, failures: [failure] });
  expect(await written()).toEqual([`MUG-${tag}`]);
});
