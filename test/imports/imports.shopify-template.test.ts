import { asc, eq, inArray } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { products, productVariants } from '../../src/db/schema';
import { adminKey, db } from '../helpers';
import template from './fixtures/product_template.csv?raw';
import { finished, upload } from './import-client';

// Shopify's product CSV template (Products > Import > "Download a sample CSV template"), byte for
// byte as Shopify hands it to merchants: 3 products, a T-shirt of 12 Color/Size variants, jeans of 3
// and a beanie of one; 48 columns, CRLF lines. Its T-shirt once made every import fail: its variants'
// insert bound more values than D1 takes (test/d1/bound-parameters.test.ts).

it("imports Shopify's own product template whole: 3 products, 16 variants, through the queue", async () => {
  const key = await adminKey();
  const dry = await upload(key, template, '?dry_run=true');
  expect(dry.status, JSON.stringify(dry.body)).toBe(200);
  expect(dry.body.data).toMatchObject({ format: 'shopify', rows: 17, products: 3, create: 3, update: 0, failed: 0, failures: [] });

  const started = await upload(key, template);
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  const { done } = await finished(key, started.body.data.id);
  expect(done).toMatchObject({ status: 'completed', reason: null, rows: 17, rowsDone: 17, created: 3, updated: 0, failed: 0, failures: [] });

  const written = await db()
    .select({ id: products.id, slug: products.slug, status: products.status, price: products.price })
    .from(products)
    .where(inArray(products.slug, ['example-shirt', 'example-pants', 'example-hat']))
    .orderBy(asc(products.slug));
  expect(written.map(({ id: _, ...p }) => p)).toEqual([
    { slug: 'example-hat', status: 'archived', price: 1799 },
    { slug: 'example-pants', status: 'draft', price: 9500 },
    { slug: 'example-shirt', status: 'active', price: 2500 },
  ]);
  const variants = await db()
    .select({ productId: productVariants.productId, sku: productVariants.sku, options: productVariants.options, stock: productVariants.stock })
    .from(productVariants)
    .where(
      inArray(
        productVariants.productId,
        written.map((p) => p.id),
      ),
    )
    .orderBy(asc(productVariants.sku));
  expect(variants).toHaveLength(16);
  const shirt = variants.filter((v) => v.productId === written[2]!.id);
  expect(shirt).toHaveLength(12);
  expect(shirt[0]).toMatchObject({ sku: 'SRT_COT_111', options: { Color: 'Green', Size: 'S' } });
  expect(variants.filter((v) => v.productId === written[1]!.id).map((v) => [v.sku, v.stock])).toEqual([
    ['PNT_DEN_285', 20],
    ['PNT_DEN_305', 15],
    ['PNT_DEN_405', 10],
  ]);
  expect((await db().select().from(productVariants).where(eq(productVariants.productId, written[0]!.id)))[0]).toMatchObject({ sku: 'HAT_GRY_275', options: {}, stock: 50 });
});
