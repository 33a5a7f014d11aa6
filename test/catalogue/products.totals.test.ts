import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { productListQuery } from '../../src/modules/products/products.query';
import { listQuerySchema } from '../../src/lib/query';
import { productListQueries } from '../../src/modules/products/products.read';
import { adminKey, api, createCategory, createProduct, db } from '../helpers';

const PAGE = 20;

/** What COUNT(*) says, to hold the kept counts against. */
async function counted(where = '1') {
  return (await env.DB.prepare(`SELECT count(*) AS n FROM products WHERE ${where}`).first<{ n: number }>())!.n;
}

/** Inserts `n` active products (one variant, one category link each) straight into D1, in batches under the 100-parameter limit. */
async function seed(n: number, categoryId: string) {
  const statements: D1PreparedStatement[] = [];
  const stamp = Date.now().toString(36);
  for (let start = 0; start < n; start += 10) {
    const ids = Array.from({ length: Math.min(10, n - start) }, (_, i) => `prod_seed${stamp}${String(start + i).padStart(5, '0')}`);
    const at = (i: number) => new Date(Date.UTC(2024, 0, 1) + (start + i) * 60_000).toISOString();
    statements.push(
      env.DB.prepare(`INSERT INTO products (id, name, slug, price, status, created_at, updated_at) VALUES ${ids.map(() => "(?, ?, ?, ?, 'active', ?, ?)").join(', ')}`).bind(
        ...ids.flatMap((id, i) => [id, `Seeded ${id}`, id.toLowerCase(), 100 + (((start + i) * 37) % 5000), at(i), at(i)]),
      ),
      env.DB.prepare(`INSERT INTO product_variants (id, product_id, price, stock) VALUES ${ids.map(() => '(?, ?, 100, 5)').join(', ')}`).bind(
        ...ids.flatMap((id) => [`var_${id}`, id]),
      ),
      env.DB.prepare(`INSERT INTO product_categories (product_id, category_id) VALUES ${ids.map(() => '(?, ?)').join(', ')}`).bind(...ids.flatMap((id) => [id, categoryId])),
    );
  }
  await env.DB.batch(statements);
}

/** The plan of a staff list's page (the statement listProducts runs), so `status` is the only status condition. */
async function plan(query: Record<string, string>) {
  const parsed = listQuerySchema(productListQuery).parse(query);
  const { sql, params } = productListQueries(db(), parsed as never, { staff: true }).rows.toSQL();
  const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
    .bind(...params)
    .all<{ detail: string }>();
  return results.map((r) => r.detail);
}

describe('product list totals and their cost', () => {
  it('keeps totals exact through creates, status changes and deletes', async () => {
    const key = await adminKey();
    const check = async () => {
      const [pub, all, drafts, archived] = await Promise.all([
        api('/api/products?limit=1'),
        api('/api/products?limit=1', { key }),
        api('/api/products?limit=1&status=draft', { key }),
        api('/api/products?limit=1&status=archived'),
      ]);
      expect(pub.body.pagination.total).toBe(await counted("status = 'active'"));
      expect(all.body.pagination.total).toBe(await counted());
      expect(drafts.body.pagination.total).toBe(await counted("status = 'draft'"));
      // A public caller asking for archived products sees none, and the total says so.
      expect(archived.body.pagination.total).toBe(0);
    };
    await check();
    const a = await createProduct(key, { status: 'active' });
    const b = await createProduct(key, { status: 'draft' });
    await createProduct(key, { status: 'archived' });
    await check();
    expect((await api(`/api/products/${b.id}`, { method: 'PATCH', key, json: { status: 'active' } })).status).toBe(200);
    expect((await api(`/api/products/${a.id}`, { method: 'PATCH', key, json: { status: 'archived' } })).status).toBe(200);
    expect((await api(`/api/products/${a.id}`, { method: 'PATCH', key, json: { name: 'Same status, new name' } })).status).toBe(200);
    await check();
    expect((await api(`/api/products/${b.id}`, { method: 'DELETE', key })).status).toBe(204);
    await check();
    const { results } = await env.DB.prepare('SELECT status, count FROM product_status_counts ORDER BY status').all<{ status: string; count: number }>();
    for (const row of results) expect(row.count).toBe(await counted(`status = '${row.status}'`));
  });

  it('reads the default list and the category filter through indexes (EXPLAIN QUERY PLAN)', async () => {
    const usesIndex = (details: string[]) => details.some((d) => /^SEARCH products USING (COVERING )?INDEX products_status_created_idx/.test(d));
    const noFullScan = (details: string[]) => details.every((d) => !/^SCAN products$/.test(d));
    const defaultPlan = await plan({ status: 'active' });
    expect(usesIndex(defaultPlan), defaultPlan.join('\n')).toBe(true);
    expect(noFullScan(defaultPlan), defaultPlan.join('\n')).toBe(true);
    // A category walks its listing's index for the sort (test/catalogue/category-listing.test.ts), then reads the page's products.
    const categoryPlan = await plan({ status: 'active', category: 'some-category' });
    expect(categoryPlan, categoryPlan.join('\n')).toContain('SEARCH category_listing USING COVERING INDEX category_listing_created_idx (category_id=? AND status=?)');
    expect(noFullScan(categoryPlan), categoryPlan.join('\n')).toBe(true);
    expect(
      categoryPlan.every((d) => !/USE TEMP B-TREE/.test(d)),
      categoryPlan.join('\n'),
    ).toBe(true);
    for (const sort of ['price:asc', 'name:asc', 'updated_at:desc']) {
      for (const filters of [{}, { category: 'some-category' }] as Record<string, string>[]) {
        const sorted = await plan({ status: 'active', sort, ...filters });
        expect(noFullScan(sorted), `${sort}\n${sorted.join('\n')}`).toBe(true);
        expect(
          sorted.every((d) => !/USE TEMP B-TREE FOR ORDER BY/.test(d)),
          `${sort}\n${sorted.join('\n')}`,
        ).toBe(true);
      }
    }
  });

  it('reads at most 3x the page size for a first page without relations, and the same rows whatever the catalogue size', async () => {
    const category = await createCategory(await adminKey());
    const firstPage = async () => {
      // Rendered every time (no-cache skips the isolate's kept answers): this measures what rendering reads.
      const fresh = { headers: { 'Cache-Control': 'no-cache' } };
      const [full, lean] = await Promise.all([api(`/api/products?limit=${PAGE}`, fresh), api(`/api/products?limit=${PAGE}&fields=id,name,price`, fresh)]);
      expect(full.body.data).toHaveLength(PAGE);
      expect(full.body.pagination.total).toBe(await counted("status = 'active'"));
      expect(lean.body.pagination.total).toBe(full.body.pagination.total);
      // One batch: the catalogue version, the rows (which carry their related rows) and the total.
      expect(full.headers.get('X-D1-Round-Trips')).toBe('1');
      return { full: Number(full.headers.get('X-D1-Rows-Read')), lean: Number(lean.headers.get('X-D1-Rows-Read')) };
    };
    await seed(200, category.id);
    const small = await firstPage();
    await seed(400, category.id);
    const large = await firstPage();
    console.log(`first page of ${PAGE}, D1 rows read: full ${small.full} -> ${large.full}; fields=id,name,price ${small.lean} -> ${large.lean}`);
    // No full scan for the total: the rows read do not grow with the catalogue.
    expect(large).toEqual(small);
    expect(large.full).toBeLessThanOrEqual(3 * PAGE);
    expect(large.lean).toBeLessThanOrEqual(3 * PAGE);
  });
});
