import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { listQuerySchema } from '../../src/lib/query';
import { productListQuery } from '../../src/modules/products/products.query';
import { productListQueries } from '../../src/modules/products/products.read';
import { adminKey, api, createBrand, createCategory, createProduct, db, insertVendor, insertVendorUser } from '../helpers';

/**
 * category_listing (migrations/0017_category_listing.sql) serves `?category=` lists: held here
 * against a brute-force reading of categories.parent_id, product_categories and products after
 * every kind of write, and against the rows a page may read.
 */

const FIELDS = ['createdAt', 'updatedAt', 'name', 'price', 'sku', 'id'] as const;
type Field = (typeof FIELDS)[number];
type Key = [Field, 'asc' | 'desc'];
const COLUMN: Record<Field, string> = { createdAt: 'created_at', updatedAt: 'updated_at', name: 'name', price: 'price', sku: 'sku', id: 'id' };
const STATUSES = ['draft', 'active', 'archived'];

const sortParam = (keys: Key[]) => keys.map(([f, d]) => `${COLUMN[f]}:${d}`).join(',');

/** The ids a category list must show, computed from the source tables alone (the tree from parent_id). */
async function expectedIds(categoryId: string, keys: Key[], statuses: string[], where = '1', params: unknown[] = []) {
  const order = keys.map(([f, d]) => `p.${COLUMN[f]} ${d}`);
  if (!keys.some(([f]) => f === 'id')) order.push(`p.id ${keys[keys.length - 1]![1]}`);
  const { results } = await env.DB.prepare(
    `WITH RECURSIVE tree(id) AS (SELECT id FROM categories WHERE id = ? UNION SELECT c.id FROM tree JOIN categories c ON c.parent_id = tree.id)
     SELECT p.id FROM products p
     WHERE p.id IN (SELECT pc.product_id FROM product_categories pc JOIN tree ON tree.id = pc.category_id)
       AND p.status IN (${statuses.map(() => '?').join(', ')}) AND (${where})
     ORDER BY ${order.join(', ')}`,
  )
    .bind(categoryId, ...statuses, ...params)
    .all<{ id: string }>();
  return results.map((r) => r.id);
}

/** The listing table against its definition: every (ancestor-or-self of a linked category, product) once, with the product's columns. */
async function expectListingExact() {
  const rows = async (sql: string) => (await env.DB.prepare(sql).all()).results.map((r) => JSON.stringify(r)).sort();
  const want = await rows(
    `WITH RECURSIVE tree(a, d) AS (SELECT id, id FROM categories UNION SELECT tree.a, c.id FROM tree JOIN categories c ON c.parent_id = tree.d)
     SELECT DISTINCT tree.a AS category_id, p.id AS product_id, p.status, p.created_at, p.updated_at, p.name, p.price, p.sku
     FROM tree JOIN product_categories pc ON pc.category_id = tree.d JOIN products p ON p.id = pc.product_id`,
  );
  const have = await rows('SELECT category_id, product_id, status, created_at, updated_at, name, price, sku FROM category_listing');
  expect(have).toEqual(want);
}

/** A category list through the API, every page of it, against the brute force. */
async function expectList(categoryId: string, keys: Key[], key?: string, extra = '', statuses = key ? STATUSES : ['active'], where?: string, params?: unknown[]) {
  const res = await api(`/api/products?category=${categoryId}&sort=${sortParam(keys)}&limit=100${extra}`, { key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const want = await expectedIds(categoryId, keys, statuses, where, params);
  const label = `${key ? 'staff' : 'public'} ${sortParam(keys)}${extra}`;
  expect(
    res.body.data.map((p: { id: string }) => p.id),
    label,
  ).toEqual(want);
  expect(res.body.pagination.total, label).toBe(want.length);
}

describe('category listing', () => {
  it('stays exact through product, link and category writes', async () => {
    const key = await adminKey();
    const root = await createCategory(key);
    const child = await createCategory(key, { parentId: root.id });
    const grandchild = await createCategory(key, { parentId: child.id });
    const other = await createCategory(key);
    const p1 = await createProduct(key, { categoryIds: [child.id, grandchild.id], price: 30, sku: `S-${root.id}-1` });
    const p2 = await createProduct(key, { categoryIds: [grandchild.id], price: 10, status: 'draft' });
    const p3 = await createProduct(key, { categoryIds: [other.id], price: 20, sku: `S-${root.id}-3` });
    const p4 = await createProduct(key, { price: 20 });

    const sorts: Key[][] = [[['price', 'asc']], [['name', 'desc']], [['createdAt', 'desc']], [['updatedAt', 'asc']], [['sku', 'desc']], [['id', 'asc']]];
    let round = 0;
    const check = async (label: string) => {
      await expectListingExact().catch((e) => {
        throw new Error(`${label}: ${e.message}`);
      });
      // Two of the sorts after each write, in turn, so that every sort follows several kinds of write.
      round += 1;
      const live = (await env.DB.prepare('SELECT id FROM categories').all<{ id: string }>()).results.map((c) => c.id);
      for (const category of [root, child, grandchild, other].filter((c) => live.includes(c.id))) {
        for (const keys of [sorts[round % sorts.length]!, sorts[(round + 3) % sorts.length]!]) {
          await expectList(category.id, keys);
          await expectList(category.id, keys, key);
        }
      }
    };
    await check('created');

    const call = async (method: string, path: string, json?: unknown) => {
      const res = await api(path, { method, key, json });
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
    };
    const variantOf = async (id: string) => (await api(`/api/products/${id}`, { key })).body.data.variants[0].id;
    const steps: [string, () => Promise<unknown>][] = [
      ['price', () => call('PATCH', `/api/products/${p1.id}`, { price: 5 })],
      ['name', () => call('PATCH', `/api/products/${p2.id}`, { name: 'Aardvark' })],
      ['sku', () => call('PATCH', `/api/products/${p3.id}`, { sku: null })],
      ['status', () => call('PATCH', `/api/products/${p2.id}`, { status: 'active' })],
      ['status again', () => call('PATCH', `/api/products/${p1.id}`, { status: 'archived' })],
      // A variant's change touches only the product's updatedAt.
      ['variant', async () => call('PATCH', `/api/products/${p1.id}/variants/${await variantOf(p1.id)}`, { stock: 7 })],
      ['relink', () => call('PATCH', `/api/products/${p3.id}`, { categoryIds: [other.id, child.id] })],
      ['unlink one of two', () => call('PATCH', `/api/products/${p1.id}`, { categoryIds: [grandchild.id] })],
      ['link an unlisted product', () => call('PATCH', `/api/products/${p4.id}`, { categoryIds: [root.id] })],
      // Writes no endpoint makes, straight to the tables.
      ['created_at', () => env.DB.prepare("UPDATE products SET created_at = '2020-01-01T00:00:00.000Z' WHERE id = ?").bind(p2.id).run()],
      // A link is never changed in place (nothing derived from it would follow): refused.
      [
        'link moved in place',
        async () => {
          const move = env.DB.prepare('UPDATE product_categories SET category_id = ? WHERE product_id = ? AND category_id = ?').bind(root.id, p3.id, child.id);
          await expect(move.run()).rejects.toThrow(/product_categories rows are not updated/);
        },
      ],
      ['raw link', () => env.DB.prepare('INSERT INTO product_categories (product_id, category_id) VALUES (?, ?)').bind(p2.id, other.id).run()],
      ['move under other', () => call('PATCH', `/api/categories/${child.id}`, { parentId: other.id })],
      ['move to the top', () => call('PATCH', `/api/categories/${child.id}`, { parentId: null })],
      ['move back', () => call('PATCH', `/api/categories/${child.id}`, { parentId: root.id })],
      ['new sub-category', async () => createProduct(key, { categoryIds: [(await createCategory(key, { parentId: grandchild.id })).id], price: 1 })],
      ['delete product', () => call('DELETE', `/api/products/${p3.id}`)],
      [
        'delete a linked category',
        async () => {
          await call('DELETE', `/api/categories/${(await env.DB.prepare('SELECT id FROM categories WHERE parent_id = ?').bind(grandchild.id).first<{ id: string }>())!.id}`);
          return call('DELETE', `/api/categories/${grandchild.id}`);
        },
      ],
      ['links in two trees', () => call('PATCH', `/api/products/${p4.id}`, { categoryIds: [child.id, other.id] })],
    ];
    for (const [label, write] of steps) {
      await write();
      await check(label);
    }
    // The writes above left something to list: p4 under child, root and other, p2 under other.
    expect((await env.DB.prepare('SELECT count(*) AS n FROM category_listing').first<{ n: number }>())!.n).toBe(4);

    // The migration's backfill, run over what the writes left, builds the same table.
    const migration = env.TEST_MIGRATIONS.find((m) => m.name.endsWith('_category_listing.sql'))!;
    const backfill = migration.queries.filter((q) => /^\s*INSERT INTO `category_listing`/.test(q));
    expect(backfill).toHaveLength(1);
    await env.DB.batch([env.DB.prepare('DELETE FROM category_listing'), env.DB.prepare(backfill[0]!)]);
    await expectListingExact();
  }, 120_000);

  it('orders every sort field both ways, ties on the id, page by page, for each caller', async () => {
    const key = await adminKey();
    const root = await createCategory(key);
    const leaf = await createCategory(key, { parentId: root.id });
    // Ties everywhere: two names, three prices, half the SKUs null, one created_at for several.
    for (let i = 0; i < 12; i++) {
      await createProduct(key, {
        categoryIds: [i % 3 ? leaf.id : root.id],
        name: i % 2 ? 'Same name' : `Name ${i % 4}`,
        price: [10, 20, 30][i % 3],
        sku: i % 2 ? null : `SKU-${root.id}-${11 - i}`,
        status: STATUSES[i % 3],
      });
    }
    await env.DB.prepare("UPDATE products SET created_at = '2025-05-05T00:00:00.000Z' WHERE id IN (SELECT product_id FROM product_categories WHERE category_id = ?)")
      .bind(leaf.id)
      .run();
    await createProduct(key, { price: 15 }); // outside the category

    for (const field of FIELDS) {
      for (const direction of ['asc', 'desc'] as const) {
        const keys: Key[] = [[field, direction]];
        const callers: [string | undefined, string, string[]][] = [
          [undefined, '', ['active']],
          [key, '', STATUSES],
          [key, '&status=draft', ['draft']],
          [undefined, '&status=archived', []], // the public never sees archived products
        ];
        for (const [caller, extra, statuses] of callers) {
          const want = await expectedIds(root.id, keys, statuses);
          const pages: string[] = [];
          for (let page = 1; page <= Math.max(1, Math.ceil(want.length / 3)); page++) {
            const res = await api(`/api/products?category=${root.slug}&sort=${sortParam(keys)}&limit=3&page=${page}${extra}`, { key: caller });
            expect(res.body.pagination.total).toBe(want.length);
            pages.push(...res.body.data.map((p: { id: string }) => p.id));
          }
          expect(pages, `${sortParam(keys)}${extra} ${caller ? 'staff' : 'public'}`).toEqual(want);
        }
      }
    }
    // Sorts of several keys, which no index holds, still come out right.
    await expectList(
      root.id,
      [
        ['price', 'asc'],
        ['name', 'desc'],
      ],
      key,
    );
    await expectList(root.id, [
      ['name', 'asc'],
      ['createdAt', 'asc'],
      ['id', 'desc'],
    ]);
  }, 120_000);

  it('answers category with every other filter exactly, for staff, the public and a vendor user', async () => {
    const key = await adminKey();
    const root = await createCategory(key);
    const leaf = await createCategory(key, { parentId: root.id });
    const brand = await createBrand(key);
    const vendor = await insertVendor();
    const { vendor: own, token } = await insertVendorUser();
    for (let i = 0; i < 16; i++) {
      await createProduct(key, {
        categoryIds: i % 5 === 4 ? [] : [i % 2 ? leaf.id : root.id],
        name: i % 3 ? `Blue shirt ${i}` : `Red hat ${i}`,
        price: 5 + i * 2,
        sku: `COMBO-${root.id}-${i}`,
        status: STATUSES[i % 3],
        brandId: i % 4 ? brand.id : null,
        vendorId: [vendor.id, own.id, null][i % 3],
      });
    }
    const sorts: Key[][] = [[['price', 'desc']], [['name', 'asc']], [['createdAt', 'desc']]];
    const combos: [string, string, unknown[]][] = [
      [`&brand=${brand.slug}`, 'p.brand_id = ?', [brand.id]],
      [`&vendor=${vendor.id}`, 'p.vendor_id = ?', [vendor.id]],
      ['&price_min=12', 'p.price >= 1200', []],
      ['&price_max=20.5', 'p.price <= 2050', []],
      ['&price_min=10&price_max=30', 'p.price BETWEEN 1000 AND 3000', []],
      ['&q=shirt', "p.name LIKE '%shirt%'", []],
      [`&sku=COMBO-${root.id}-6`, 'p.sku = ?', [`COMBO-${root.id}-6`]],
      [`&q=hat&brand=${brand.id}&price_min=10`, "p.name LIKE '%hat%' AND p.brand_id = ? AND p.price >= 1000", [brand.id]],
    ];
    for (const keys of sorts) {
      for (const [extra, where, params] of combos) {
        await expectList(root.id, keys, undefined, extra, ['active'], where, params);
        await expectList(root.id, keys, key, extra, STATUSES, where, params);
        await expectList(root.id, keys, key, `${extra}&status=draft`, ['draft'], where, params);
      }
      // A vendor user sees its own products in every status, nobody else's.
      await expectList(leaf.id, keys, token, '', STATUSES, 'p.vendor_id = ?', [own.id]);
      await expectList(root.id, keys, token, '&price_max=25', STATUSES, 'p.vendor_id = ? AND p.price <= 2500', [own.id]);
    }
    // The combinations matched something, so the comparisons above compared lists, not empty ones.
    expect((await expectedIds(root.id, [['price', 'asc']], STATUSES, "p.name LIKE '%shirt%' AND p.brand_id = ?", [brand.id])).length).toBeGreaterThan(2);
  }, 120_000);

  it('reads the page off the sort index: EXPLAIN QUERY PLAN of every sort, both ways, public and staff', async () => {
    const parse = listQuerySchema(productListQuery).parse;
    const explain = async (query: Record<string, string>, staff: boolean) => {
      const { rows } = productListQueries(db(), parse(query) as never, { staff });
      const { sql, params } = rows.toSQL();
      const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .bind(...params)
        .all<{ detail: string }>();
      return results.map((r) => r.detail);
    };
    const index: Record<Field, string> = { createdAt: 'created', updatedAt: 'updated', name: 'name', price: 'price', sku: 'sku', id: 'id' };
    for (const field of FIELDS) {
      for (const direction of ['asc', 'desc']) {
        for (const [staff, extra] of [
          [false, {}],
          [true, {}],
          [true, { status: 'draft' }],
        ] as const) {
          const plan = await explain({ category: 'some-category', sort: `${field}:${direction}`, ...extra }, staff);
          const label = `${field}:${direction} ${staff ? 'staff' : 'public'} ${JSON.stringify(extra)}\n${plan.join('\n')}`;
          const walks = plan.filter((d) => d.startsWith('SEARCH category_listing'));
          // One walk per status the caller sees, each along the sort's index from (category, status).
          expect(walks.length, label).toBe(staff && !('status' in extra) ? 3 : 1);
          for (const walk of walks) expect(walk, label).toBe(`SEARCH category_listing USING COVERING INDEX category_listing_${index[field]}_idx (category_id=? AND status=?)`);
          expect(
            plan.some((d) => /^SEARCH products USING INDEX sqlite_autoindex_products_1 \(id=\?\)$/.test(d)),
            label,
          ).toBe(true);
          expect(
            plan.filter((d) => /TEMP B-TREE|^SCAN (products|category_listing)/.test(d)),
            label,
          ).toEqual([]);
        }
      }
    }
    // A price range within a category is a range of the price index.
    const ranged = await explain({ category: 'some-category', sort: 'price:asc', price_min: '10', price_max: '20' }, false);
    expect(ranged, ranged.join('\n')).toContain('SEARCH category_listing USING COVERING INDEX category_listing_price_idx (category_id=? AND status=? AND price>? AND price<?)');
  });

  it('reads about the page, whatever the size of the category and the catalogue', async () => {
    const PAGE = 20;
    const key = await adminKey();
    const category = await createCategory(key);
    let seeded = 0;
    /** `n` active products straight into D1, `inCategory` of them linked to the category. */
    const seed = async (n: number, inCategory: number) => {
      const statements: D1PreparedStatement[] = [];
      for (let start = 0; start < n; start += 10) {
        const ids = Array.from({ length: Math.min(10, n - start) }, (_, i) => `prod_lst${String(seeded + start + i).padStart(6, '0')}`);
        const at = (i: number) => new Date(Date.UTC(2024, 0, 1) + (seeded + start + i) * 60_000).toISOString();
        statements.push(
          env.DB.prepare(
            `INSERT INTO products (id, name, slug, price, sku, status, created_at, updated_at) VALUES ${ids.map(() => "(?, ?, ?, ?, ?, 'active', ?, ?)").join(', ')}`,
          ).bind(...ids.flatMap((id, i) => [id, `Listed ${((seeded + start + i) * 7919) % 1000}`, id, 100 + (((seeded + start + i) * 37) % 5000), `SKU${id}`, at(i), at(i)])),
        );
        const linked = ids.filter((_, i) => start + i < inCategory);
        if (linked.length) {
          statements.push(
            env.DB.prepare(`INSERT INTO product_categories (product_id, category_id) VALUES ${linked.map(() => '(?, ?)').join(', ')}`).bind(
              ...linked.flatMap((id) => [id, category.id]),
            ),
          );
        }
      }
      await env.DB.batch(statements);
      seeded += n;
    };
    const measure = async (round: number) => {
      const read: Record<string, number> = {};
      for (const sort of ['price:asc', 'price:desc', 'name:asc', 'created_at:desc', 'updated_at:asc', 'sku:desc', 'id:asc']) {
        for (const [who, caller] of [
          ['public', undefined],
          ['staff', key],
        ] as const) {
          for (const page of [1, 5]) {
            // A query string of its own per round, so no kept answer stands in for the read.
            const res = await api(`/api/products?category=${category.slug}&sort=${sort}&limit=${PAGE}&page=${page}&fields=id,name,price${round ? ',sku' : ''}`, { key: caller });
            expect(res.body.data).toHaveLength(PAGE);
            expect(res.headers.get('X-D1-Round-Trips')).toBe('1');
            read[`${sort} ${who} page ${page}`] = Number(res.headers.get('X-D1-Rows-Read'));
          }
        }
      }
      return read;
    };
    await seed(600, 300);
    const small = await measure(0);
    await seed(1200, 300); // the category and the catalogue both grow
    const large = await measure(1);
    console.log(`category page of ${PAGE}, D1 rows read at 300 and 600 products in the category:`, JSON.stringify(large));
    expect(large).toEqual(small);
    for (const [label, rows] of Object.entries(large)) {
      // The page's index entries and its products, plus a few rows (the category by id or slug, the
      // catalogue version, the kept totals, a staff key); page 5 walks the 80 entries before it too.
      const offset = label.endsWith('page 5') ? 4 * PAGE : 0;
      expect(rows, label).toBeLessThanOrEqual(offset + 2 * PAGE + 15);
    }
  }, 120_000);
});
