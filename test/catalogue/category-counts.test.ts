import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { adminKey, api, createCategory, createProduct } from '../helpers';

/**
 * category_tree and category_product_counts (migrations/0014_product_related.sql) answer
 * `?category=` lists without reading the category: held here against a recount from the tables.
 */

/** Distinct products per (category and its descendants, status), counted from parent_id, links and products. */
async function recount(): Promise<Record<string, number>> {
  const { results } = await env.DB.prepare(
    `WITH RECURSIVE tree(ancestor, descendant) AS (
       SELECT id, id FROM categories UNION SELECT tree.ancestor, c.id FROM tree JOIN categories c ON c.parent_id = tree.descendant
     )
     SELECT tree.ancestor AS category, p.status, count(DISTINCT p.id) AS n
     FROM tree JOIN product_categories pc ON pc.category_id = tree.descendant JOIN products p ON p.id = pc.product_id
     GROUP BY tree.ancestor, p.status`,
  ).all<{ category: string; status: string; n: number }>();
  return Object.fromEntries(results.map((r) => [`${r.category}/${r.status}`, r.n]));
}

async function kept(): Promise<Record<string, number>> {
  const { results } = await env.DB.prepare('SELECT category_id, status, count FROM category_product_counts WHERE count <> 0').all<{
    category_id: string;
    status: string;
    count: number;
  }>();
  return Object.fromEntries(results.map((r) => [`${r.category_id}/${r.status}`, r.count]));
}

async function treeFromParents() {
  const q = (sql: string) =>
    env.DB.prepare(sql)
      .all<{ a: string; d: string }>()
      .then((r) => r.results.map((x) => `${x.a}>${x.d}`).sort());
  const expected = await q(
    `WITH RECURSIVE tree(a, d) AS (SELECT id, id FROM categories UNION SELECT tree.a, c.id FROM tree JOIN categories c ON c.parent_id = tree.d) SELECT a, d FROM tree`,
  );
  expect(await q('SELECT ancestor_id AS a, descendant_id AS d FROM category_tree')).toEqual(expected);
}

async function expectCounts() {
  const [want, have] = await Promise.all([recount(), kept()]);
  expect(have).toEqual(want);
  await treeFromParents();
}

describe('category counts and tree', () => {
  it('stay exact through links, status changes, deletes and moves', async () => {
    const key = await adminKey();
    const root = await createCategory(key);
    const child = await createCategory(key, { parentId: root.id });
    const grandchild = await createCategory(key, { parentId: child.id });
    const other = await createCategory(key);
    await expectCounts();

    // One product in the child and the grandchild: counted once in the child and the root.
    const both = await createProduct(key, { categoryIds: [child.id, grandchild.id] });
    const leaf = await createProduct(key, { categoryIds: [grandchild.id], status: 'draft' });
    const elsewhere = await createProduct(key, { categoryIds: [other.id] });
    await expectCounts();
    const total = async (category: string, admin = false) => (await api(`/api/products?category=${category}&limit=1`, { key: admin ? key : undefined })).body.pagination.total;
    expect(await total(root.slug)).toBe(1);
    expect(await total(root.id, true)).toBe(2);

    const steps: [string, string, unknown][] = [
      ['PATCH', `/api/products/${leaf.id}`, { status: 'active' }],
      ['PATCH', `/api/products/${both.id}`, { categoryIds: [grandchild.id] }],
      ['PATCH', `/api/products/${elsewhere.id}`, { categoryIds: [other.id, child.id] }],
      ['PATCH', `/api/products/${both.id}`, { status: 'archived' }],
      // Move the child (and its grandchild) under `other`, then back to the top.
      ['PATCH', `/api/categories/${child.id}`, { parentId: other.id }],
      ['PATCH', `/api/categories/${child.id}`, { parentId: null }],
      ['DELETE', `/api/products/${elsewhere.id}`, undefined],
      ['DELETE', `/api/categories/${grandchild.id}`, undefined],
    ];
    for (const [method, path, json] of steps) {
      const res = await api(path, { method, key, json });
      expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
      await expectCounts();
    }
    // The list totals are the counts: each category, public and staff, against the rows listed.
    for (const category of [root, child, other]) {
      for (const admin of [false, true]) {
        const res = await api(`/api/products?category=${category.id}&limit=100`, { key: admin ? key : undefined });
        expect(res.body.pagination.total).toBe(res.body.data.length);
      }
    }
  });

  it('lists a category by walking the sort index: the page, in order, with the right total', async () => {
    const key = await adminKey();
    const category = await createCategory(key);
    const prices = [30, 10, 50, 20, 40, 60, 15];
    for (const price of prices) await createProduct(key, { categoryIds: [category.id], price });
    await createProduct(key, { price: 1 }); // not in the category
    const res = await api(`/api/products?category=${category.slug}&sort=price:asc&limit=3&page=2`);
    expect(res.body.data.map((p: any) => p.price)).toEqual([30, 40, 50]);
    expect(res.body.pagination.total).toBe(prices.length);
    expect(Number(res.headers.get('X-D1-Round-Trips'))).toBe(1);
  });
});
