import { and, eq, like, sql } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { events, productVariants, products } from '../../src/db/schema';
import { finished, upload } from './import-client';
import { adminKey, db, uid } from '../helpers';

// A 5,000-row file: 1,000 products of 5 variants, 10 of them with one bad row. Progress is
// reported as the queue goes, the bad products are reported and not written at all, and the same
// file again changes nothing.

it('imports 5,000 rows in chunks with progress, reports the bad rows, writes no half product, and is idempotent', { timeout: 180_000 }, async () => {
  const key = await adminKey();
  const tag = uid().toLowerCase();
  const bad = new Set(Array.from({ length: 10 }, (_, i) => i * 97 + 5));
  const lines = ['handle,name,price,status,option1_name,option1_value,variant_sku,variant_stock'];
  for (let p = 0; p < 1000; p++) {
    for (let v = 0; v < 5; v++) {
      const first = v === 0;
      const stock = bad.has(p) && v === 2 ? 'x' : String(v + 1);
      lines.push(
        `big-${tag}-${p},${first ? `Product ${p} ${tag}` : ''},${first ? (10 + (p % 50)).toFixed(2) : ''},${first ? 'active' : ''},Size,S${v},BIG-${tag}-${p}-${v},${stock}`,
      );
    }
  }
  const csv = lines.join('\n');
  expect(lines.length - 1).toBe(5000);

  const dry = (await upload(key, csv, '?dry_run=true')).body.data;
  expect(dry).toMatchObject({ rows: 5000, products: 1000, create: 990, update: 0, failed: 10, failedRows: 50 });
  expect(dry.failures).toHaveLength(10);
  expect(dry.failures[0]).toEqual({ line: 5 * 5 + 2 + 2, column: 'variant_stock', reason: "'x' is not a whole number" });

  const started = await upload(key, csv);
  expect(started.status).toBe(202);
  const { done, seen } = await finished(key, started.body.data.id);
  expect(done).toMatchObject({ rows: 5000, rowsDone: 5000, products: 1000, created: 990, updated: 0, unchanged: 0, failed: 10, failuresTotal: 10 });
  // Progress moved in steps the whole way, never backwards.
  const progress = seen.map((s) => s.rowsDone);
  expect(progress).toEqual([...progress].sort((a, b) => a - b));
  expect(progress.some((n) => n > 50 && n < 5000)).toBe(true);

  const written = await db()
    .select({ n: sql<number>`count(*)` })
    .from(products)
    .where(like(products.slug, `big-${tag}-%`));
  expect(written[0]!.n).toBe(990);
  const variants = await db()
    .select({ n: sql<number>`count(*)` })
    .from(productVariants)
    .where(like(productVariants.sku, `BIG-${tag}-%`));
  expect(variants[0]!.n).toBe(4950);
  for (const p of bad)
    expect(
      await db()
        .select()
        .from(productVariants)
        .where(like(productVariants.sku, `BIG-${tag}-${p}-%`)),
    ).toHaveLength(0);
  const createdEvents = await db()
    .select({ n: sql<number>`count(*)` })
    .from(events)
    .where(and(eq(events.type, 'product.created'), sql`json_extract(${events.data}, '$.product.slug') LIKE ${`big-${tag}-%`}`));
  expect(createdEvents[0]!.n).toBe(990);

  const again = await finished(key, (await upload(key, csv)).body.data.id);
  expect(again.done).toMatchObject({ created: 0, updated: 0, unchanged: 990, failed: 10, rowsDone: 5000 });
  const updatedEvents = await db()
    .select({ n: sql<number>`count(*)` })
    .from(events)
    .where(and(eq(events.type, 'product.updated'), sql`json_extract(${events.data}, '$.product.slug') LIKE ${`big-${tag}-%`}`));
  expect(updatedEvents[0]!.n).toBe(0);
});
