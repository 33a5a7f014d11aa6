import { and, eq, like, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, events, imports, inventoryAdjustments, productVariants, products } from '../../src/db/schema';
import { MAX_ROWS_PER_FILE } from '../../src/modules/imports/plan';
import { finished, upload } from './import-client';
import { adminKey, api, createBrand, createCategory, db, expectError, uid } from '../helpers';

// Product import from CSV: validation row by row (dry run and real), the queue writing products
// whole, progress, re-runs matched by SKU, and Shopify's export format.

const productBySku = async (sku: string) => (await db().select().from(products).where(eq(products.sku, sku)))[0];

describe('product import', () => {
  it('checks every row and reports line, column and reason; a dry run writes nothing', async () => {
    const key = await adminKey();
    const tag = uid().toUpperCase();
    const brand = await createBrand(key, { name: `Acme ${tag}` });
    const csv = [
      'handle,name,description,price,sku,status,brand,option1_name,option1_value,variant_sku,variant_price,variant_stock,image_urls',
      `tee-${tag},Tee ${tag},"Soft, heavy cotton",20,,active,Acme ${tag},Size,S,TEE-${tag}-S,,5,https://img.example/tee.jpg https://img.example/tee2.jpg`,
      `tee-${tag},,,,,,,Size,M,TEE-${tag}-M,22.5,3,`,
      `,Mug ${tag},,12.50,MUG-${tag},draft,,,,,,7,`,
      `,Bad price ${tag},,"12,50",BAD-${tag},,,,,,,,`,
      `,Unknown brand ${tag},,5,UB-${tag},,Nobody ${tag},,,,,,`,
      `,,,5,NONAME-${tag},,,,,,,,`,
      `cap-${tag},Cap ${tag},,9,,,,Color,Red,CAP-${tag}-R,,1,`,
      `cap-${tag},,,,,,,Color,Blue,CAP-${tag}-B,abc,1,`,
    ].join('\n');
    const dry = await upload(key, csv, '?dry_run=true');
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body.data).toMatchObject({ dryRun: true, format: 'store', rows: 8, products: 6, create: 2, update: 0, failed: 4, failedRows: 5 });
    expect(dry.body.data.failures).toEqual([
      { line: 5, column: 'price', reason: "'12,50' is not a number (use a dot for decimals: 19.99)" },
      { line: 6, column: 'brand', reason: `no brand 'Nobody ${tag}': create it first, or leave the cell empty` },
      { line: 7, column: 'name', reason: 'is required' },
      { line: 9, column: 'variant_price', reason: "'abc' is not a number (use a dot for decimals: 19.99)" },
    ]);
    expect(await productBySku(`MUG-${tag}`)).toBeUndefined();

    const started = await upload(key, csv);
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    expect(started.headers.get('Location')).toBe(`/api/imports/${started.body.data.id}`);
    const { done } = await finished(key, started.body.data.id);
    expect(done).toMatchObject({ status: 'completed', rows: 8, rowsDone: 8, created: 2, updated: 0, unchanged: 0, failed: 4, failuresTotal: 4 });
    const listed = await api('/api/imports?status=completed&limit=100', { key });
    expect(listed.body.data.find((i: any) => i.id === done.id)).toMatchObject({ rowsDone: 8, created: 2, failed: 4 });
    expect(listed.body.data[0]).not.toHaveProperty('failures');
    const tee = (await api(`/api/products/tee-${tag.toLowerCase()}`, { key })).body.data;
    expect(tee).toMatchObject({ name: `Tee ${tag}`, description: 'Soft, heavy cotton', status: 'active', price: 20, brand: { id: brand.id }, stock: 8 });
    expect(tee.images.map((i: any) => i.url)).toEqual(['https://img.example/tee.jpg', 'https://img.example/tee2.jpg']);
    expect(tee.variants.map((v: any) => [v.sku, v.options, v.price, v.stock])).toEqual([
      [`TEE-${tag}-S`, { Size: 'S' }, 20, 5],
      [`TEE-${tag}-M`, { Size: 'M' }, 22.5, 3],
    ]);
    expect(await productBySku(`MUG-${tag}`)).toMatchObject({ status: 'draft', price: 1250 });
    // The queue's writes are in the audit log as the key that started the import.
    const audited = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.resource, 'product'), eq(auditLog.resourceId, tee.id)));
    expect(audited.map((a) => [a.action, a.actorKind, `key:${a.actorId}`, a.requestId])).toEqual([['create', 'api_key', done.actor, done.id]]);
    // The cap had one bad row: none of it was written.
    expect(
      await db()
        .select()
        .from(productVariants)
        .where(like(productVariants.sku, `CAP-${tag}-%`)),
    ).toHaveLength(0);
    const created = await db()
      .select()
      .from(events)
      .where(and(eq(events.type, 'product.created'), sql`json_extract(${events.data}, '$.product.name') IN (${`Tee ${tag}`}, ${`Mug ${tag}`})`));
    expect(created).toHaveLength(2);
  });

  it('updates by SKU on a second run: unchanged products untouched, changes written with product.updated, stock as a correction', async () => {
    const key = await adminKey();
    const tag = uid().toUpperCase();
    const category = await createCategory(key, { name: `Kitchen ${tag}` });
    const file = (price: string, stock: string) =>
      ['name,price,sku,category,variant_stock', `Pan ${tag},${price},PAN-${tag},Kitchen ${tag},${stock}`, `Pot ${tag},30,POT-${tag},,4`].join('\r\n');
    const first = await finished(key, (await upload(key, file('40', '10'))).body.data.id);
    expect(first.done).toMatchObject({ created: 2, failed: 0 });
    const again = await finished(key, (await upload(key, file('40', '10'))).body.data.id);
    expect(again.done).toMatchObject({ created: 0, updated: 0, unchanged: 2 });
    const changed = await finished(key, (await upload(key, file('42.5', '7'))).body.data.id);
    expect(changed.done).toMatchObject({ created: 0, updated: 1, unchanged: 1 });
    const pan = (await api(`/api/products/${(await productBySku(`PAN-${tag}`))!.id}`, { key })).body.data;
    expect(pan).toMatchObject({ price: 42.5, stock: 7, categories: [{ id: category.id }] });
    expect(pan.variants[0]).toMatchObject({ sku: `PAN-${tag}`, price: 42.5, stock: 7 });
    const adjustments = await db().select().from(inventoryAdjustments).where(eq(inventoryAdjustments.productId, pan.id));
    expect(adjustments.map((a) => [a.delta, a.reason])).toEqual([[-3, 'correction']]);
    const updated = await db()
      .select()
      .from(events)
      .where(and(eq(events.type, 'product.updated'), sql`json_extract(${events.data}, '$.productId') = ${pan.id}`));
    expect(updated).toHaveLength(1);
    expect((updated[0]!.data as any).product.price).toBe(42.5);
  });

  it('reads variant_weight for a simple product and for variants, and a second run changes it', async () => {
    const key = await adminKey();
    const tag = uid().toUpperCase();
    const file = (w: string) =>
      [
        'handle,name,price,sku,option1_name,option1_value,variant_sku,variant_weight',
        `,Kettle ${tag},30,KET-${tag},,,,${w}`,
        `rug-${tag},Rug ${tag},90,,Size,S,RUG-${tag}-S,2.5`,
        `rug-${tag},,,,Size,L,RUG-${tag}-L,6`,
      ].join('\n');
    expect((await finished(key, (await upload(key, file('1.2'))).body.data.id)).done).toMatchObject({ created: 2, failed: 0 });
    const weights = async (sku: string) => (await db().select({ weight: productVariants.weight }).from(productVariants).where(like(productVariants.sku, sku))).map((v) => v.weight);
    expect(await weights(`KET-${tag}`)).toEqual([1.2]);
    expect((await weights(`RUG-${tag}-%`)).sort()).toEqual([2.5, 6]);
    expect((await finished(key, (await upload(key, file('1.4'))).body.data.id)).done).toMatchObject({ updated: 1, unchanged: 1 });
    expect(await weights(`KET-${tag}`)).toEqual([1.4]);
    const bad = await upload(key, file('-1'), '?dry_run=true');
    expect(bad.body.data.failures).toEqual([{ line: 2, column: 'variant_weight', reason: expect.stringContaining('0') }]);
  });

  it("reads Shopify's product export: variants and images by handle, status, Default Title", async () => {
    const key = await adminKey();
    const tag = uid().toLowerCase();
    const csv = [
      'Handle,Title,Body (HTML),Vendor,Product Category,Type,Tags,Published,Option1 Name,Option1 Value,Option2 Name,Option2 Value,Option3 Name,Option3 Value,Variant SKU,Variant Grams,Variant Inventory Tracker,Variant Inventory Qty,Variant Inventory Policy,Variant Fulfillment Service,Variant Price,Variant Compare At Price,Variant Requires Shipping,Variant Taxable,Variant Barcode,Image Src,Image Position,Image Alt Text,Gift Card,Status',
      `hoodie-${tag},Hoodie ${tag},<p>Warm</p>,Nobody,Apparel,Tops,,TRUE,Size,S,Color,Grey,,,HD-${tag}-S-G,500,shopify,4,deny,manual,45.00,50.00,TRUE,TRUE,,https://cdn.example/h1.jpg,1,Front,FALSE,active`,
      `hoodie-${tag},,,,,,,,,M,,Grey,,,HD-${tag}-M-G,500,shopify,6,deny,manual,45.00,,TRUE,TRUE,,https://cdn.example/h2.jpg,2,Back,,`,
      `hoodie-${tag},,,,,,,,,,,,,,,,,,,,,,,,,https://cdn.example/h3.jpg,3,,,`,
      `socks-${tag},Socks ${tag},,,,,,FALSE,Title,Default Title,,,,,SK-${tag},100,shopify,12,deny,manual,9.00,,TRUE,TRUE,,,,,FALSE,`,
    ].join('\n');
    const dry = await upload(key, csv, '?dry_run=true');
    expect(dry.body.data).toMatchObject({ format: 'shopify', rows: 4, products: 2, create: 2, failed: 0 });
    expect(dry.body.data.ignoredColumns).not.toContain('Variant Grams');
    const { done } = await finished(key, (await upload(key, csv)).body.data.id);
    expect(done).toMatchObject({ format: 'shopify', created: 2, failed: 0, rowsDone: 4 });
    const hoodie = (await api(`/api/products/hoodie-${tag}`, { key })).body.data;
    expect(hoodie).toMatchObject({ name: `Hoodie ${tag}`, description: '<p>Warm</p>', status: 'active', price: 45, stock: 10, brand: null });
    expect(hoodie.images).toEqual([{ url: 'https://cdn.example/h1.jpg', alt: 'Front' }, { url: 'https://cdn.example/h2.jpg', alt: 'Back' }, { url: 'https://cdn.example/h3.jpg' }]);
    // Variant Grams in the store's weightUnit (kg).
    expect(hoodie.variants.map((v: any) => [v.sku, v.options, v.compareAtPrice, v.weight])).toEqual([
      [`HD-${tag}-S-G`, { Size: 'S', Color: 'Grey' }, 50, 0.5],
      [`HD-${tag}-M-G`, { Size: 'M', Color: 'Grey' }, null, 0.5],
    ]);
    const socks = (await api(`/api/products/socks-${tag}`, { key })).body.data;
    expect(socks).toMatchObject({ status: 'draft', price: 9, stock: 12, variants: [{ sku: `SK-${tag}`, options: {}, weight: 0.1 }] });
  });

  it('takes at most 100 rows for one product, and refuses a file with more where it meets them, reading no further', async () => {
    const key = await adminKey();
    const tag = uid();
    const header = 'handle,name,price,option1_name,option1_value';
    const sizes = (handle: string, n: number) => Array.from({ length: n }, (_, i) => `${handle},Shirt ${tag},5,Size,${i}`);
    // As many rows as POST /api/products takes variants.
    const full = await upload(key, [header, ...sizes(`full-${tag}`, 100)].join('\n'), '?dry_run=true');
    expect(full.status, JSON.stringify(full.body)).toBe(200);
    expect(full.body.data).toMatchObject({ rows: 100, products: 1, create: 1, failed: 0 });

    const refusal = (line: number, handle: string) => [
      {
        field: 'body',
        code: 'invalid_value',
        message: `body: line ${line}, column handle: '${handle}' has more than 100 rows: a product has at most 100 (one per variant, as POST /api/products takes)`,
      },
    ];
    const over = await upload(key, [header, `other-${tag},Other,1,,`, ...sizes(`over-${tag}`, 101)].join('\n'), '?dry_run=true');
    expectError(over, 422, 'VALIDATION_ERROR');
    expect(over.body.error.details).toEqual(refusal(103, `over-${tag}`));

    // A file of IMPORT_MAX_BYTES (10 MiB) with one handle is refused at its 101st row: the quote
    // left open at its very end is never reached, so the rest of the file was not read.
    const row = `big-${tag},B,1\n`;
    const big = `handle,name,price\n${row.repeat(Math.floor((10 * 1024 * 1024 - 100) / row.length))}"never closed`;
    expect(big.length).toBeGreaterThan(10 * 1024 * 1024 - 200);
    const imported = await db().select({ n: sql<number>`count(*)` }).from(imports);
    const refused = await upload(key, big);
    expectError(refused, 422, 'VALIDATION_ERROR');
    expect(refused.body.error.details).toEqual(refusal(102, `big-${tag}`));
    expect(await db().select({ n: sql<number>`count(*)` }).from(imports)).toEqual(imported);
  });

  it('takes at most 50,000 rows a file, and refuses more (413) where it meets them, reading no further', async () => {
    const key = await adminKey();
    const tag = uid();
    // 50,001 one-row products, then an unclosed quote that is never reached.
    const rows = Array.from({ length: MAX_ROWS_PER_FILE + 1 }, (_, i) => `r${i}-${tag},P,1`);
    const res = await upload(key, ['handle,name,price', ...rows, '"never closed'].join('\n'), '?dry_run=true');
    expectError(res, 413, 'INVALID_REQUEST');
    expect(res.body.error.details).toEqual({
      field: 'body',
      issue: `has more than ${MAX_ROWS_PER_FILE} rows (line ${MAX_ROWS_PER_FILE + 2})`,
      code: 'too_big',
      message: `body has more than ${MAX_ROWS_PER_FILE} rows (line ${MAX_ROWS_PER_FILE + 2})`,
    });
  });

  it('refuses what is not a CSV product file', async () => {
    const key = await adminKey();
    expectError(await api('/api/products/import', { method: 'POST', key, json: { name: 'x' } }), 415, 'INVALID_REQUEST');
    expectError(await upload(key, 'title;price\nx;1'), 422, 'VALIDATION_ERROR');
    expectError(await upload(key, 'name,price\n"never closed,1'), 422, 'VALIDATION_ERROR');
    expectError(await upload(key, 'name,price\n'), 422, 'VALIDATION_ERROR');
    expectError(await api('/api/imports/imp_nope', { key }), 404, 'NOT_FOUND');
  });
});
