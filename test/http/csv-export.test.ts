import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { apiKeyBucket } from '../../src/middleware/auth';
import { parseCsv as readCsv } from '../../src/lib/csv';
import { placeOrder } from '../../src/modules/orders/place-order';
import { adminKey, api, createProduct, db, expectError, insertUser, uid } from '../helpers';

// CSV export of any list: every matching row, not a page; columns from fields=; the list's reach;
// counted once against the rate limit.

/** The rows of a CSV answer (src/lib/csv.ts's reader, tested on its own in test/lib/csv.test.ts). */
const parseCsv = (text: string) => readCsv(text).map((r) => r.cells);

async function ordersFor(email: string, count: number) {
  const product = await createProduct(await adminKey(), { price: 12.5, stock: 1000, sku: `CSV-${uid()}` });
  for (let i = 0; i < count; i++) await placeOrder(db(), { customerId: null, email, lines: [{ variantId: product.variants[0].id, quantity: 2 }], actor: 'system' });
  return product;
}

describe('CSV export', () => {
  it('answers Accept: text/csv with every matching order across pages, every field as a column, counted once', async () => {
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
    // The export was one request for the limiter: 10 an hour here (vitest.config.ts), and 3 pages.
    const left = await env.RATE_LIMITER.getByName(await apiKeyBucket(key)).hit(10, 3600);
    expect(left.remaining).toBe(10 - 2);
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
    const cells = parseCsv(res.body as string).slice(1).map((r) => r[0]!);
    expect(cells.sort()).toEqual([`'+${tag} plus`, `'-${tag} minus`, `'=HYPERLINK("http://evil.test","${tag}")`, `'@${tag} at`, `Mug, "large" ${tag}\nsecond line`].sort());
  });
});
