import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { apiKeyBucket } from '../../src/middleware/auth';
import { parseCsv as readCsv } from '../../src/lib/csv';
import { placeOrder } from '../../src/modules/orders/place-order';
import { adminKey, api, createProduct, db, expectError, insertBrandWithProducts, insertUser, uid } from '../helpers';
import { exportWatchingPages } from './csv-export-pages';

// CSV export of any list: every matching row, not a page; columns from fields=; the list's reach;
// a request per page against the rate limit; at most CSV_EXPORT_MAX_ROWS rows; pages from kept
// answers whatever the client's Cache-Control; deep pages by keyset.

/** The rows of a CSV answer (src/lib/csv.ts's reader, tested on its own in test/lib/csv.test.ts). */
const parseCsv = (text: string) => readCsv(text).map((r) => r.cells);

async function ordersFor(email: string, count: number) {
  const product = await createProduct(await adminKey(), { price: 12.5, stock: 1000, sku: `CSV-${uid()}` });
  for (let i = 0; i < count; i++) await placeOrder(db(), { customerId: null, email, lines: [{ variantId: product.variants[0].id, quantity: 2 }], actor: 'system' });
  return product;
}

describe('CSV export', () => {
  it('answers Accept: text/csv with every matching order across pages, every field as a column, a request per page', async () => {
    const email = `csv-${uid()}@example.test`;
    const product = await ordersFor(email, 230);
    await ordersFor(`other-${uid()}@example.test`, 3);
    const key = await adminKey();
    const res = await api('/api/orders?limit=5&page=3&sort=number:asc&created_after=2000-01-01', { key, headers: { Accept: 'text/csv' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('Content-Disposition')).toMatch(/^attachment; filename="orders-\d{4}-\d\d-\d\d\.csv"$/);
    const rows = parseCsv(res.body as string);
    const [header, ...items] = rows;
    expect(header).toEqual(expect.arrayContaining(['id', 'number', 'email', 'total', 'currency', 'shippingAddress.city', 'lines.sku', 'lines.quantity', 'createdAt']));
    expect(items.length).toBe(Number(res.headers.get('X-Total-Count')));
    const mine = items.filter((r) => r[header!.indexOf('email')] === email);
    expect(mine).toHaveLength(230);
    // One row per order, oldest first as asked (page and limit do not apply), numbers in order.
    const numbers = items.map((r) => Number(r[header!.indexOf('number')]));
    expect(new Set(numbers).size).toBe(items.length);
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    expect(mine[0]![header!.indexOf('total')]).toBe('25');
    expect(mine[0]![header!.indexOf('lines.sku')]).toBe(product.variants[0].sku);
    expect(product.variants[0].sku).toMatch(/^CSV-/);
    // Each page the export read was one request for the limiter (the export paid for the first): 3 pages, then this hit.
    const left = await env.RATE_LIMITER.getByName(await apiKeyBucket(key)).hit(10, 3600);
    expect(left.remaining).toBe(10 - 3 - 1);
  });

  it('takes ?format=csv with filters and fields=, and answers a bad one as JSON', async () => {
    const email = `fmt-${uid()}@example.test`;
    await ordersFor(email, 3);
    const key = await adminKey();
    const res = await api(`/api/orders?format=csv&fields=number,email,total,lines(sku,quantity)&status=pending`, { key });
    expect(res.status).toBe(200);
    const [header, ...items] = parseCsv(res.body as string);
    expect(header).toEqual(['number', 'email', 'total', 'lines.sku', 'lines.quantity']);
    expect(items.filter((r) => r[1] === email).map((r) => r[4])).toEqual(['2', '2', '2']);
    expectError(await api('/api/orders?format=csv&fields=secret', { key }), 400, 'INVALID_REQUEST');
    expectError(await api('/api/orders?format=csv&status=lost', { key }), 400, 'INVALID_REQUEST');
    expectError(await api('/api/orders?format=xml', { key }), 400, 'INVALID_REQUEST');
    const single = await api(`/api/orders/1001?format=csv`, { key });
    expect(single.status).toBe(406);
    expect((single.body as any).error.details.field).toBe('format');
    // JSON stays the default, and format=json is JSON.
    expect((await api('/api/orders?format=json', { key })).body.success).toBe(true);
  });

  it("keeps each list's reach: a customer exports its own orders, a guest is refused in JSON", async () => {
    const customer = await insertUser();
    const variantId = (await createProduct(await adminKey(), { price: 3, stock: 50 })).variants[0].id;
    for (let i = 0; i < 2; i++) expect((await api('/api/orders', { method: 'POST', key: customer.token, json: { lines: [{ variantId, quantity: 1 }] } })).status).toBe(201);
    await ordersFor(`someone-${uid()}@example.test`, 2);
    const res = await api('/api/orders?format=csv&fields=email', { key: customer.token });
    expect(parseCsv(res.body as string).slice(1)).toEqual([[customer.user.email.toLowerCase()], [customer.user.email.toLowerCase()]]);
    expectError(await api('/api/orders?format=csv'), 401, 'AUTHENTICATION_ERROR');
  });

  it('neutralises formulas and escapes what a catalogue name may hold', async () => {
    const key = await adminKey();
    const tag = uid();
    const names = [`=HYPERLINK("http://evil.test","${tag}")`, `+${tag} plus`, `@${tag} at`, `-${tag} minus`, `Mug, "large" ${tag}\nsecond line`];
    for (const name of names) expect((await api('/api/products', { method: 'POST', key, json: { name, price: 5, stock: 1 } })).status).toBe(201);
    const res = await api(`/api/products?format=csv&fields=name,price&q=${tag}`, { key });
    expect(res.status).toBe(200);
    const cells = parseCsv(res.body as string)
      .slice(1)
      .map((r) => r[0]!);
    expect(cells.sort()).toEqual([`'+${tag} plus`, `'-${tag} minus`, `'=HYPERLINK("http://evil.test","${tag}")`, `'@${tag} at`, `Mug, "large" ${tag}\nsecond line`].sort());
  });

  it('reads each further page after the last row of the one before (keyset), so a deep page reads its own rows only', async () => {
    const { names } = await insertBrandWithProducts(450);
    // The default order (newest first, ties by id) and a selection without its fields: the export asks for them.
    const { res, body, pages } = await exportWatchingPages('/api/products?format=csv&fields=name');
    expect(res.status).toBe(200);
    const exported = parseCsv(body as string);
    expect(exported[0]).toEqual(['name']);
    expect(exported.slice(1, 451).map((r) => r[0])).toEqual([...names].reverse());
    expect(pages.length).toBeGreaterThanOrEqual(5);
    expect(pages[1]!.url.searchParams.get('fields')).toBe('name,createdAt,id');
    // Page 5 by offset skips 400 rows to read 100 (D1 reads ~450); each page of the export reads its own (~100, and the kept total).
    const byOffset = await api('/api/products?fields=name,createdAt,id&limit=100&page=5', { headers: { 'Cache-Control': 'no-cache' } });
    expect(byOffset.body.data.slice(0, 50).map((p: any) => p.name)).toEqual([...names].reverse().slice(400));
    const rowsRead = (headers: Headers) => Number(headers.get('X-D1-Rows-Read'));
    expect(rowsRead(byOffset.headers)).toBeGreaterThan(400);
    for (const page of pages.slice(1)) expect(rowsRead(page.headers), page.url.search).toBeLessThan(120);
    // A sort on money has no keyset here: its pages are read by offset, and still whole.
    const byPrice = await exportWatchingPages('/api/products?format=csv&fields=name&sort=price:desc');
    expect(parseCsv(byPrice.body as string).slice(1)).toHaveLength(exported.length - 1);
    expect(byPrice.pages[1]!.url.searchParams.get('fields')).toBe('name');
    // A page that starts after a row still counts the whole list for its total (here a count, with a filter).
    const { slug, names: branded } = await insertBrandWithProducts(250);
    const filtered = await exportWatchingPages(`/api/products?format=csv&fields=name&brand=${slug}`);
    expect(
      parseCsv(filtered.body as string)
        .slice(1)
        .map((r) => r[0]),
    ).toEqual([...branded].reverse());
    expect(filtered.pages.map((p) => p.total)).toEqual([250, 250, 250]);
  });

  it('refuses an export of more rows than CSV_EXPORT_MAX_ROWS with 413 before any row, and exports one at the maximum', async () => {
    const { slug } = await insertBrandWithProducts(151);
    const exportWithMax = async (max: string) => {
      const ctx = createExecutionContext();
      const res = await createApp().fetch(new Request(`http://store.test/api/products?format=csv&brand=${slug}`), { ...env, CSV_EXPORT_MAX_ROWS: max }, ctx);
      const text = await res.text();
      await waitOnExecutionContext(ctx);
      return { status: res.status, text };
    };
    const over = await exportWithMax('150');
    expect(over.status).toBe(413);
    const refusal = JSON.parse(over.text);
    expect(refusal.error.code).toBe('INVALID_REQUEST');
    expect(refusal.error.message).toContain('151 rows match');
    expect(refusal.error.message).toContain('at most 150');
    expect(refusal.error.details.field).toBe('format');
    const at = await exportWithMax('151');
    expect(at.status).toBe(200);
    expect(parseCsv(at.text).slice(1)).toHaveLength(151);
  });

  it("serves an export's pages from kept answers, whatever Cache-Control or Pragma the client sends", async () => {
    const { slug, names } = await insertBrandWithProducts(150);
    const path = `/api/products?format=csv&brand=${slug}&fields=name`;
    const first = await api(path);
    expect(
      parseCsv(first.body)
        .slice(1)
        .map((r) => r[0]),
    ).toEqual([...names].reverse());
    // The names change in D1 while the catalogue version stays: only a page rendered anew shows them.
    const [{ version }] = (await env.DB.prepare('SELECT version FROM catalogue_version WHERE id = 1').all<{ version: number }>()).results as [{ version: number }];
    await env.DB.prepare("UPDATE products SET name = name || ' renamed' WHERE brand_id = (SELECT id FROM brands WHERE slug = ?)").bind(slug).run();
    await env.DB.prepare('UPDATE catalogue_version SET version = ? WHERE id = 1').bind(version).run();
    const fresh = await api(`/api/products?brand=${slug}&fields=name&limit=1`, { headers: { 'Cache-Control': 'no-cache' } });
    expect(fresh.body.data[0].name).toBe(`${names[149]} renamed`);
    const again = await api(path, { headers: { 'Cache-Control': 'no-cache, no-store', Pragma: 'no-cache' } });
    expect(again.status).toBe(200);
    expect(again.body).toBe(first.body);
  });
});
