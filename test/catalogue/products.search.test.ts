import { describe, expect, it } from 'vitest';
import { ftsQuery } from '../../src/modules/products/products.search';
import { adminKey, api, createBrand, createCategory, createProduct, expectError, uid } from '../helpers';

// Full-text search (`q`) on the FTS5 index kept by triggers on products. Storage is shared by the
// tests of this file, so each test searches words of its own (`w<uid>`).

const word = () => `w${uid()}`;
const search = async (query: string, key?: string) => {
  const res = await api(`/api/products?${query}`, { key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { data: { id: string; name: string }[]; pagination: { total: number } };
};
const namesFor = async (query: string, key?: string) => (await search(query, key)).data.map((p) => p.name);

describe('ftsQuery', () => {
  it('makes every word a quoted prefix and keeps quoted phrases, so nothing typed is FTS syntax', () => {
    expect(ftsQuery('leather sat')).toBe('"leather"* "sat"*');
    expect(ftsQuery('"red wool" scarf')).toBe('"red wool" "scarf"*');
    expect(ftsQuery('NEAR(a b) -c OR d:e*')).toBe('"NEAR"* "a"* "b"* "c"* "OR"* "d"* "e"*');
    expect(ftsQuery('MUG-001')).toBe('"MUG"* "001"*');
    expect(ftsQuery('  ?!  ')).toBeNull();
    expect(ftsQuery('"unclosed phrase')).toBe('"unclosed phrase"');
  });
});

describe('product search (q)', () => {
  it('matches words as prefixes, folds accents, and matches quoted phrases', async () => {
    const key = await adminKey();
    const w = word();
    await createProduct(key, { name: `Vintage Leather Satchel ${w}` });
    await createProduct(key, { name: `Café Crème Mug ${w}` });
    await createProduct(key, { name: `Satchel of leather ${w}` });
    expect((await namesFor(`q=sat ${w}`)).sort()).toEqual([`Satchel of leather ${w}`, `Vintage Leather Satchel ${w}`]);
    expect(await namesFor(`q=cafe ${w}`)).toEqual([`Café Crème Mug ${w}`]);
    expect(await namesFor(`q=CREME ${w.toUpperCase()}`)).toEqual([`Café Crème Mug ${w}`]);
    expect(await namesFor(`q=${encodeURIComponent(`"leather satchel" ${w}`)}`)).toEqual([`Vintage Leather Satchel ${w}`]);
    expect(await namesFor(`q=${encodeURIComponent(`satchel ${w} nosuchword`)}`)).toEqual([]);
  });

  it('ranks a name match above a SKU, brand or category match, and those above a description match', async () => {
    const key = await adminKey();
    const w = word();
    const brand = await createBrand(key, { name: `Brand ${w}` });
    await createProduct(key, { name: 'Plain item one', description: `Mentions ${w} in passing.` });
    await createProduct(key, { name: 'Plain item two', brandId: brand.id });
    await createProduct(key, { name: `Named ${w}` });
    expect(await namesFor(`q=${w}`)).toEqual([`Named ${w}`, 'Plain item two', 'Plain item one']);
    expect(await namesFor(`q=${w}&sort=relevance`)).toEqual([`Named ${w}`, 'Plain item two', 'Plain item one']);
    // An explicit sort orders the matches by it instead.
    expect(await namesFor(`q=${w}&sort=name`)).toEqual([`Named ${w}`, 'Plain item one', 'Plain item two']);
  });

  it('combines q with the other filters, sort, paging and visibility', async () => {
    const key = await adminKey();
    const w = word();
    const brand = await createBrand(key);
    const category = await createCategory(key);
    await createProduct(key, { name: `Cheap ${w}`, price: 5, brandId: brand.id, categoryIds: [category.id] });
    await createProduct(key, { name: `Dear ${w}`, price: 50, brandId: brand.id });
    await createProduct(key, { name: `Other ${w}`, price: 20 });
    await createProduct(key, { name: `Hidden ${w}`, price: 20, status: 'draft' });
    expect(await namesFor(`q=${w}&brand=${brand.slug}&sort=price:desc`)).toEqual([`Dear ${w}`, `Cheap ${w}`]);
    expect(await namesFor(`q=${w}&price_min=10&sort=price`)).toEqual([`Other ${w}`, `Dear ${w}`]);
    expect(await namesFor(`q=${w}&category=${category.slug}`)).toEqual([`Cheap ${w}`]);
    const page = await search(`q=${w}&sort=price&limit=2&page=2`);
    expect(page.data.map((p) => p.name)).toEqual([`Dear ${w}`]);
    expect(page.pagination.total).toBe(3);
    // Drafts are for staff: public callers never find them; staff do, and may ask for them.
    expect(await namesFor(`q=hidden ${w}`)).toEqual([]);
    expect(await namesFor(`q=hidden ${w}&status=draft`, key)).toEqual([`Hidden ${w}`]);
  });

  it('is 400 for sort=relevance without q, and finds nothing for a q without words', async () => {
    expectError(await api('/api/products?sort=relevance'), 400, 'INVALID_REQUEST');
    expect((await search(`q=${encodeURIComponent('?!*')}`)).data).toEqual([]);
    expect((await search(`q=${encodeURIComponent('NEAR( AND ) OR "')}`)).pagination.total).toBe(0);
  });

  it('keeps the index right after every write that changes what a product is found by', async () => {
    const key = await adminKey();
    const [a, b, c, d, e, f, g] = Array.from({ length: 7 }, word) as [string, string, string, string, string, string, string];
    const brand = await createBrand(key, { name: `Brand ${a}` });
    const category = await createCategory(key, { name: `Category ${b}` });
    const product = await createProduct(key, { name: `Start ${c}`, brandId: brand.id, categoryIds: [category.id], sku: `SKU-${d}` });
    const found = async (w: string) => (await search(`q=${w}`, key)).data.map((p) => p.id);
    for (const w of [a, b, c, d]) expect(await found(w), w).toEqual([product.id]);

    const patch = (path: string, json: unknown) => api(path, { method: 'PATCH', key, json });
    await patch(`/api/products/${product.id}`, { name: `Renamed ${e}`, description: `Now with ${f}` });
    expect(await found(c)).toEqual([]);
    expect(await found(e)).toEqual([product.id]);
    expect(await found(f)).toEqual([product.id]);

    await patch(`/api/brands/${brand.id}`, { name: `Rebranded ${g}` });
    expect(await found(a)).toEqual([]);
    expect(await found(g)).toEqual([product.id]);

    const h = word();
    await patch(`/api/categories/${category.id}`, { name: `Recategorised ${h}` });
    expect(await found(b)).toEqual([]);
    expect(await found(h)).toEqual([product.id]);
    await patch(`/api/products/${product.id}`, { categoryIds: [] });
    expect(await found(h)).toEqual([]);

    const v = word();
    const variant = (await api(`/api/products/${product.id}/variants`, { method: 'POST', key, json: { name: `Variant ${v}`, sku: `VS-${v}`, price: 12 } })).body.data;
    expect(await found(v)).toEqual([product.id]);
    const v2 = word();
    await patch(`/api/products/${product.id}/variants/${variant.id}`, { name: `Variant ${v2}` });
    expect(await found(v2)).toEqual([product.id]);
    await api(`/api/products/${product.id}/variants/${variant.id}`, { method: 'DELETE', key });
    expect(await found(v2)).toEqual([]);

    await api(`/api/products/${product.id}`, { method: 'DELETE', key });
    expect(await found(e)).toEqual([]);
  });

  it('does not re-index a product on a stock change (every order makes one), only on a change of its text', async () => {
    const key = await adminKey();
    const w = word();
    const product = await createProduct(key, { name: `Stocked ${w}`, stock: 5 });
    const { env } = await import('cloudflare:workers');
    // D1 counts the rows triggers write in meta.changes: a stock change in related writes what the
    // same change to a column the index does not hold writes (the row and the catalogue version), no index rows.
    const run = (statement: string, ...values: unknown[]) =>
      env.DB.prepare(statement)
        .bind(...values)
        .run();
    const unindexed = await run('UPDATE products SET low_stock_threshold = 7 WHERE id = ?', product.id);
    const stock = await run(`UPDATE products SET related = json_set(related, '$.variants[0].stock', 3) WHERE id = ?`, product.id);
    expect(stock.meta.changes).toBe(unindexed.meta.changes);
    const renamed = await run('UPDATE products SET name = ? WHERE id = ?', `Restocked ${w}`, product.id);
    expect(renamed.meta.changes).toBeGreaterThan(stock.meta.changes);
    expect(await namesFor(`q=${w}`)).toEqual([`Restocked ${w}`]);
  });
});

describe('search suggestions', () => {
  it('suggests products by name prefix (accents ignored) and categories by word prefix, active products only', async () => {
    const key = await adminKey();
    const w = word();
    const satchel = await createProduct(key, { name: `Satchel ${w}` });
    await createProduct(key, { name: `Satin ${w}`, status: 'draft' });
    await createProduct(key, { name: `Plain ${w}`, description: 'A satchel-like bag' });
    const category = await createCategory(key, { name: `Leather ${w}` });
    const res = await api(`/api/products/suggest?q=${encodeURIComponent(`sat ${w}`)}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.products).toEqual([{ id: satchel.id, name: `Satchel ${w}`, slug: satchel.slug }]);
    const cats = await api(`/api/products/suggest?q=${encodeURIComponent(`leather ${w}`)}`);
    expect(cats.body.data.categories).toEqual([{ id: category.id, name: category.name, slug: category.slug }]);
    const staff = await api(`/api/products/suggest?q=${encodeURIComponent(`sat ${w}`)}`, { key });
    expect(staff.body.data.products.map((p: { name: string }) => p.name).sort()).toEqual([`Satchel ${w}`, `Satin ${w}`]);
    expect(res.headers.get('ETag')).toBeTruthy();
    expectError(await api('/api/products/suggest'), 400, 'INVALID_REQUEST');
  });
});
