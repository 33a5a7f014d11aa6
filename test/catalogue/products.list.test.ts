import { beforeAll, describe, expect, it } from 'vitest';
import { adminKey, api, createBrand, createCategory, createProduct, insertVendor, tick, uid } from '../helpers';

// Every test scopes its list with a filter on data it created itself (usually `q=<token>`), so the
// tests of this file do not see each other's products.

let key: string;
beforeAll(async () => {
  key = await adminKey();
});

type Product = { id: string; name: string; price: number; createdAt: string; [k: string]: any };

/** Lists as the admin unless told to call anonymously (only the visibility tests need that). */
async function list(query: string, opts: { anonymous?: boolean } = {}) {
  const res = await api(`/api/products?${query}`, opts.anonymous ? {} : { key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as { data: any[]; pagination: any };
}

/** Ids a list returns, in order. */
const ids = async (query: string, opts: { anonymous?: boolean } = {}) => (await list(query, opts)).data.map((p) => p.id as string);
const sorted = (values: string[]) => [...values].sort();
const q = (text: string) => `q=${encodeURIComponent(text)}`;

describe('filters', () => {
  it('filters by category, by id or slug, including every sub-category of a three-level tree', async () => {
    const root = await createCategory(key);
    const child = await createCategory(key, { parentId: root.id });
    const grand = await createCategory(key, { parentId: child.id });
    const other = await createCategory(key);
    const pRoot = await createProduct(key, { categoryIds: [root.id] });
    const pChild = await createProduct(key, { categoryIds: [child.id] });
    const pGrand = await createProduct(key, { categoryIds: [grand.id] });
    const pBoth = await createProduct(key, { categoryIds: [child.id, grand.id] });
    const pOther = await createProduct(key, { categoryIds: [other.id] });
    await createProduct(key);

    const underRoot = sorted([pRoot.id, pChild.id, pGrand.id, pBoth.id]);
    expect(sorted(await ids(`category=${root.id}`))).toEqual(underRoot);
    const bySlug = await list(`category=${root.slug}`);
    expect(sorted(bySlug.data.map((p) => p.id))).toEqual(underRoot);
    expect(bySlug.pagination.total).toBe(4);
    expect(sorted(await ids(`category=${child.slug}`))).toEqual(sorted([pChild.id, pGrand.id, pBoth.id]));
    expect(sorted(await ids(`category=${grand.id}`))).toEqual(sorted([pGrand.id, pBoth.id]));
    expect(await ids(`category=${other.slug}`)).toEqual([pOther.id]);
    const none = await list(`category=no-such-category-${uid()}`);
    expect(none.data).toEqual([]);
    expect(none.pagination.total).toBe(0);
  });

  it('filters by brand, by id or slug', async () => {
    const a = await createBrand(key);
    const b = await createBrand(key);
    const a1 = await createProduct(key, { brandId: a.id });
    const a2 = await createProduct(key, { brandId: a.id });
    await createProduct(key, { brandId: b.id });
    await createProduct(key);
    expect(sorted(await ids(`brand=${a.id}`))).toEqual(sorted([a1.id, a2.id]));
    expect(sorted(await ids(`brand=${a.slug}`))).toEqual(sorted([a1.id, a2.id]));
    expect(await ids(`brand=no-such-brand-${uid()}`)).toEqual([]);
  });

  it('filters by vendor, by id or slug', async () => {
    const v = await insertVendor();
    const w = await insertVendor();
    const mine = await createProduct(key, { vendorId: v.id });
    await createProduct(key, { vendorId: w.id });
    expect(mine.vendor).toEqual(v);
    expect(await ids(`vendor=${v.id}`)).toEqual([mine.id]);
    expect(await ids(`vendor=${v.slug}`)).toEqual([mine.id]);
    expect(await ids(`vendor=no-such-vendor-${uid()}`)).toEqual([]);
  });

  it('filters by price_min and price_max, inclusive, in decimals', async () => {
    const token = uid();
    const byPrice: Record<string, string> = {};
    for (const price of [9.99, 10, 10.01, 19.99, 20]) byPrice[price] = (await createProduct(key, { name: `Priced ${token}`, price })).id;
    const pick = (...prices: number[]) => sorted(prices.map((p) => byPrice[p]!));
    expect(sorted(await ids(`${q(token)}&price_min=10&price_max=19.99`))).toEqual(pick(10, 10.01, 19.99));
    expect(sorted(await ids(`${q(token)}&price_min=10.00&price_max=19.990`))).toEqual(pick(10, 10.01, 19.99));
    expect(sorted(await ids(`${q(token)}&price_min=10.01`))).toEqual(pick(10.01, 19.99, 20));
    expect(await ids(`${q(token)}&price_max=9.99`)).toEqual([byPrice[9.99]]);
    expect(await ids(`${q(token)}&price_min=20&price_max=20`)).toEqual([byPrice[20]]);
    expect(await ids(`${q(token)}&price_min=20.01`)).toEqual([]);
  });

  it('combines filters with AND', async () => {
    const brand = await createBrand(key);
    const category = await createCategory(key);
    const hit = await createProduct(key, { brandId: brand.id, categoryIds: [category.id], price: 15 });
    await createProduct(key, { brandId: brand.id, categoryIds: [category.id], price: 25 });
    await createProduct(key, { brandId: brand.id, price: 15 });
    await createProduct(key, { categoryIds: [category.id], price: 15 });
    expect(await ids(`brand=${brand.slug}&category=${category.slug}&price_max=20`)).toEqual([hit.id]);
  });
});

describe('status and visibility', () => {
  it('shows public callers active products only; admins see and filter every status', async () => {
    const token = uid();
    const active = await createProduct(key, { name: `Vis ${token} active`, status: 'active' });
    const draft = await createProduct(key, { name: `Vis ${token} draft`, status: 'draft' });
    const archived = await createProduct(key, { name: `Vis ${token} archived`, status: 'archived' });

    const anonymous = await list(q(token), { anonymous: true });
    expect(anonymous.data.map((p) => p.id)).toEqual([active.id]);
    expect(anonymous.pagination.total).toBe(1);
    expect(await ids(`${q(token)}&status=draft`, { anonymous: true })).toEqual([]);
    expect(await ids(`${q(token)}&status=archived`, { anonymous: true })).toEqual([]);
    for (const hidden of [draft, archived]) {
      for (const path of [`/api/products/${hidden.id}`, `/api/products/${hidden.slug}`]) {
        const res = await api(path);
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe('NOT_FOUND');
      }
    }

    expect(sorted(await ids(q(token)))).toEqual(sorted([active.id, draft.id, archived.id]));
    expect(await ids(`${q(token)}&status=draft`)).toEqual([draft.id]);
    expect(await ids(`${q(token)}&status=archived`)).toEqual([archived.id]);
    expect(await ids(`${q(token)}&status=active`)).toEqual([active.id]);
    expect((await api(`/api/products/${draft.id}`, { key })).body.data).toEqual(draft);
  });
});

describe('search (q)', () => {
  it('searches name, description, product SKU and variant SKU, case-insensitively', async () => {
    const token = uid();
    const byName = await createProduct(key, { name: `Alpha ${token} Widget` });
    const byDescription = await createProduct(key, { description: `Made with ${token}desc inside.` });
    const bySku = await createProduct(key, { sku: `PSKU-${token}` });
    const byVariantSku = await createProduct(key, { variants: [{ sku: `VSKU-${token}-X`, options: { size: 'S' } }] });
    await createProduct(key, { name: 'Unrelated' });

    const all = sorted([byName.id, byDescription.id, bySku.id, byVariantSku.id]);
    expect(sorted(await ids(q(token)))).toEqual(all);
    expect(sorted(await ids(q(token.toUpperCase())))).toEqual(all);
    expect(await ids(q(`alpha ${token} widget`))).toEqual([byName.id]);
    expect(await ids(q(`${token}DESC`))).toEqual([byDescription.id]);
    expect(await ids(q(`psku-${token}`))).toEqual([bySku.id]);
    expect(await ids(q(`vsku-${token}-x`))).toEqual([byVariantSku.id]);
  });

  it('treats %, _ and backslash as separators between words, never as wildcards', async () => {
    // Not a bare uid(): its counter is shared by every file of the runtime, and a token that begins
    // with `a`, `b`, `c` or `d` would match the one-letter words searched below as a prefix.
    const token = `q${uid()}`;
    const percent = await createProduct(key, { name: `Pct ${token} 50% off` });
    await createProduct(key, { name: `Pct ${token} 50 off` });
    await createProduct(key, { name: `Pct ${token} 500 off` });
    const underscore = await createProduct(key, { name: `Us ${token} a_b` });
    await createProduct(key, { name: `Us ${token} axb` });
    const backslash = await createProduct(key, { name: `Bs ${token} c\\d` });
    await createProduct(key, { name: `Bs ${token} cd` });

    // `50` is a prefix of 50 and 500 and `%` adds nothing: the three Pct products, the literal one among them.
    const fifty = await ids(q(`${token} 50%`));
    expect(fifty).toHaveLength(3);
    expect(fifty).toContain(percent.id);
    expect(await ids(q(`${token} a_b`))).toEqual([underscore.id]);
    expect(await ids(q(`${token} c\\d`))).toEqual([backslash.id]);
    expect((await ids(q(`%${token}`))).length).toBe(7);
    expect(await ids(q('_'.repeat(10)))).toEqual([]);
  });
});

describe('pagination', () => {
  it('reports page, limit, total, totalPages, hasNext and hasPrev; a page past the end is empty', async () => {
    const token = uid();
    const made: string[] = [];
    for (const letter of ['a', 'b', 'c', 'd', 'e']) made.push((await createProduct(key, { name: `${letter} page ${token}` })).id);
    const base = `${q(token)}&sort=name`;

    const first = await list(`${base}&limit=2`);
    expect(first.data.map((p) => p.id)).toEqual(made.slice(0, 2));
    expect(first.pagination).toEqual({ page: 1, limit: 2, total: 5, totalPages: 3, hasNext: true, hasPrev: false });
    const second = await list(`${base}&limit=2&page=2`);
    expect(second.data.map((p) => p.id)).toEqual(made.slice(2, 4));
    expect(second.pagination).toEqual({ page: 2, limit: 2, total: 5, totalPages: 3, hasNext: true, hasPrev: true });
    const last = await list(`${base}&limit=2&page=3`);
    expect(last.data.map((p) => p.id)).toEqual(made.slice(4));
    expect(last.pagination).toEqual({ page: 3, limit: 2, total: 5, totalPages: 3, hasNext: false, hasPrev: true });
    for (const page of [4, 999]) {
      const past = await list(`${base}&limit=2&page=${page}`);
      expect(past.data).toEqual([]);
      expect(past.pagination).toEqual({ page, limit: 2, total: 5, totalPages: 3, hasNext: false, hasPrev: true });
    }

    const defaults = await list(base);
    expect(defaults.pagination).toEqual({ page: 1, limit: 20, total: 5, totalPages: 1, hasNext: false, hasPrev: false });
    expect((await list(`${base}&limit=1`)).pagination).toMatchObject({ total: 5, totalPages: 5, hasNext: true });
    expect((await list(`${base}&limit=100`)).data).toHaveLength(5);
    const empty = await list(q(`nothing-${uid()}`));
    expect(empty).toMatchObject({ data: [], pagination: { page: 1, limit: 20, total: 0, totalPages: 0, hasNext: false, hasPrev: false } });
  });
});

describe('sort', () => {
  it('applies several keys in order and ends ties on id, so pages neither repeat nor skip', async () => {
    const token = uid();
    const specs: [number, string][] = [
      [10, 'b'],
      [20, 'a'],
      [10, 'a'],
      [5, 'c'],
      [10, 'a'],
      [20, 'z'],
      [10, 'b'],
      [10, 'a'],
    ];
    const made: Product[] = [];
    for (const [price, letter] of specs) made.push(await createProduct(key, { name: `${letter} sort ${token}`, price }));
    const expected = [...made].sort((x, y) => y.price - x.price || (x.name < y.name ? -1 : x.name > y.name ? 1 : 0) || (x.id < y.id ? -1 : 1)).map((p) => p.id);

    const base = `${q(token)}&sort=price:desc,name:asc`;
    expect(await ids(`${base}&limit=100`)).toEqual(expected);
    for (const limit of [2, 3]) {
      const paged: string[] = [];
      for (let page = 1; page <= Math.ceil(made.length / limit); page++) paged.push(...(await ids(`${base}&limit=${limit}&page=${page}`)));
      expect(paged).toEqual(expected);
    }
    // Direction defaults to asc; the id tie-break stays ascending whatever the direction.
    const ascending = [...made].sort((x, y) => x.price - y.price || (x.id < y.id ? -1 : 1)).map((p) => p.id);
    expect(await ids(`${q(token)}&sort=price&limit=100`)).toEqual(ascending);
  });

  it('accepts snake_case field names: created_at:desc is createdAt:desc, and is the default', async () => {
    const token = uid();
    const made: string[] = [];
    for (let i = 0; i < 4; i++) {
      made.push((await createProduct(key, { name: `Timed ${token} ${i}` })).id);
      await tick();
    }
    const newestFirst = [...made].reverse();
    expect(await ids(`${q(token)}&sort=created_at:desc`)).toEqual(newestFirst);
    expect(await ids(`${q(token)}&sort=createdAt:desc`)).toEqual(newestFirst);
    // With q and no sort, the order is relevance: these match equally, and ties end on the id (oldest first).
    expect(await ids(q(token))).toEqual(made);
    expect(await ids(`${q(token)}&sort=created_at`)).toEqual(made);
    expect(await ids(`${q(token)}&sort=updated_at:asc`)).toEqual(made);
  });
});

describe('fields', () => {
  it('returns exactly the selected fields, nested ones included, on lists and single reads', async () => {
    const token = uid();
    const p = await createProduct(key, { name: `Fields ${token}`, price: 12.34, variants: [{ options: { size: 'S' } }, { options: { size: 'M' }, price: 13 }] });
    const expected = { id: p.id, name: p.name, variants: p.variants.map((v: any) => ({ id: v.id, price: v.price })) };

    const listed = await list(`${q(token)}&fields=id,name,variants(id,price)`);
    expect(listed.data).toEqual([expected]);
    expect(Object.keys(listed.data[0]).sort()).toEqual(['id', 'name', 'variants']);
    for (const v of listed.data[0].variants) expect(Object.keys(v).sort()).toEqual(['id', 'price']);
    expect(listed.pagination.total).toBe(1);

    const single = await api(`/api/products/${p.id}?fields=id,name,variants(id,price)`);
    expect(single.status).toBe(200);
    expect(single.body.data).toEqual(expected);
    expect((await api(`/api/products/${p.slug}?fields=stock,price`)).body.data).toEqual({ stock: 0, price: 12.34 });
  });

  it('selects inside a nested object, which may be null', async () => {
    const brand = await createBrand(key);
    const token = uid();
    const branded = await createProduct(key, { name: `Nested ${token} 1`, brandId: brand.id });
    const unbranded = await createProduct(key, { name: `Nested ${token} 2` });
    const listed = await list(`${q(token)}&fields=brand(name)&sort=name`);
    expect(listed.data).toEqual([{ brand: { name: brand.name } }, { brand: null }]);
    expect((await api(`/api/products/${branded.id}?fields=brand(name)`)).body.data).toEqual({ brand: { name: brand.name } });
    expect((await api(`/api/products/${unbranded.id}?fields=brand(name)`)).body.data).toEqual({ brand: null });
    const category = await createCategory(key);
    const categorised = await createProduct(key, { categoryIds: [category.id] });
    expect((await api(`/api/products/${categorised.id}?fields=id,categories(slug)`)).body.data).toEqual({ id: categorised.id, categories: [{ slug: category.slug }] });
  });

  it('accepts snake_case field names and returns camelCase keys', async () => {
    const p = await createProduct(key, { compareAtPrice: 30, lowStockThreshold: 3 });
    const res = await api(`/api/products/${p.id}?fields=compare_at_price,low_stock_threshold,variants(created_at)`);
    expect(res.body.data).toEqual({ compareAtPrice: 30, lowStockThreshold: 3, variants: [{ createdAt: p.variants[0].createdAt }] });
  });
});

describe('bad query parameters', () => {
  const cases: [string, string][] = [
    ['sort=bogus', 'sort'],
    ['sort=price:sideways', 'sort'],
    ['sort=price:desc,price:asc', 'sort'],
    ['sort=price:desc:x', 'sort'],
    ['fields=nope', 'fields'],
    ['fields=id,variants(nope)', 'fields'],
    ['fields=id,variants(', 'fields'],
    ['fields=name(id)', 'fields'],
    ['fields=id,,name', 'fields'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['limit=-5', 'limit'],
    ['page=0', 'page'],
    ['page=abc', 'page'],
    ['page=1.5', 'page'],
    ['price_min=abc', 'price_min'],
    ['price_max=1.234', 'price_max'],
    ['price_min=-1', 'price_min'],
    ['status=bogus', 'status'],
    ['foo=1', 'foo'],
  ];

  it.each(cases)('answers 400 INVALID_REQUEST to ?%s naming %s', async (query, field) => {
    const res = await api(`/api/products?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.success).toBe(false);
    expect(res.body.error.code).toBe('INVALID_REQUEST');
    // The published shape (version 2026-11-20, the default): one object naming the parameter.
    expect(res.body.error.details).toEqual({ field, issue: expect.any(String), code: expect.any(String), message: expect.stringMatching(new RegExp(`^${field}\\b`)) });
  });

  it('checks the parameters of a single read too', async () => {
    const p = await createProduct(key);
    for (const [query, field] of [
      ['fields=nope', 'fields'],
      ['fields=variants(nope)', 'fields'],
      ['foo=1', 'foo'],
    ] as const) {
      const res = await api(`/api/products/${p.id}?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'INVALID_REQUEST', details: { field } });
    }
    const unknown = await api('/api/products?foo=1');
    expect(unknown.body.error.details).toEqual({ field: 'foo', issue: 'is not a known query parameter', code: 'unknown_parameter', message: 'foo is not a known query parameter' });
  });

  it('accepts the boundary values', async () => {
    for (const query of ['limit=1', 'limit=100', 'page=1', 'price_min=0', 'sort=price:DESC', 'sort=name,id:desc']) {
      expect((await api(`/api/products?${query}`)).status, query).toBe(200);
    }
  });
});
