import { describe, expect, it } from 'vitest';
import { categories, productCategories, products } from '../../src/db/schema';
import { PRICE_BUCKETS } from '../../src/modules/products/products.facets';
import { adminKey, api, createBrand, createCategory, createProduct, db, expectError, insertVendorUser, uid } from '../helpers';

// Facets counted by the API against the same counts made by brute force from the tables, after
// random writes of every kind that moves a product between facet values.

type Counts = Record<string, number>;
const bucketOf = (price: number) => {
  const i = PRICE_BUCKETS.findIndex((bound) => price < bound);
  return String(i === -1 ? PRICE_BUCKETS.length : i);
};

/** Seeded pseudo-random numbers, so a failure can be replayed. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** The facet counts of the products that pass `keep`, from the tables alone. */
async function bruteForce(keep: (p: typeof products.$inferSelect, inCategories: Set<string>) => boolean) {
  const [all, links, cats] = await Promise.all([db().select().from(products), db().select().from(productCategories), db().select().from(categories)]);
  const parent = new Map(cats.map((c) => [c.id, c.parentId]));
  const treeOf = (productId: string) => {
    const found = new Set<string>();
    for (const link of links.filter((l) => l.productId === productId)) {
      for (let at: string | null | undefined = link.categoryId; at; at = parent.get(at)) found.add(at);
    }
    return found;
  };
  const category: Counts = {};
  const brand: Counts = {};
  const price: Counts = {};
  for (const p of all) {
    const tree = treeOf(p.id);
    if (!keep(p, tree)) continue;
    for (const c of tree) category[c] = (category[c] ?? 0) + 1;
    if (p.brandId) brand[p.brandId] = (brand[p.brandId] ?? 0) + 1;
    price[bucketOf(p.price)] = (price[bucketOf(p.price)] ?? 0) + 1;
  }
  return { category, brand, price };
}

const asCounts = (items: { id: string; count: number }[]) => Object.fromEntries(items.map((i) => [i.id, i.count]));
const priceCounts = (items: { min: number; count: number }[]) => Object.fromEntries(items.map((b) => [bucketOf(Math.round(b.min * 100)), b.count]));

describe('product facets', () => {
  it('count like brute force after random writes, each facet under every filter but its own, kept or counted', async () => {
    const key = await adminKey();
    const next = random(20261124);
    const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)]!;
    const brandList = await Promise.all([0, 1, 2].map(() => createBrand(key)));
    const root = await createCategory(key);
    const child = await createCategory(key, { parentId: root.id });
    const other = await createCategory(key);
    const categoryList = [root, child, other];
    const made = [];
    for (let i = 0; i < 14; i++) {
      made.push(
        await createProduct(key, {
          price: Math.round(next() * 800 * 100) / 100,
          brandId: next() < 0.8 ? pick(brandList).id : undefined,
          categoryIds: next() < 0.7 ? [pick(categoryList).id] : [],
          status: pick(['active', 'active', 'draft', 'archived']),
        }),
      );
    }
    for (let i = 0; i < 10; i++) {
      const product = pick(made);
      const change = pick(['price', 'brand', 'status', 'categories']);
      const json =
        change === 'price'
          ? { price: Math.round(next() * 800 * 100) / 100 }
          : change === 'brand'
            ? { brandId: next() < 0.3 ? null : pick(brandList).id }
            : change === 'status'
              ? { status: pick(['active', 'draft', 'archived']) }
              : { categoryIds: next() < 0.3 ? [] : [pick(categoryList).id] };
      const res = await api(`/api/products/${product.id}`, { method: 'PATCH', key, json });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }
    await api(`/api/products/${made[0]!.id}`, { method: 'DELETE', key });

    const facetsOf = async (query: string, credential?: string) => {
      const res = await api(`/api/products?facets=category,brand,price&${query}`, { key: credential });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const { category, brand, price } = res.body.facets;
      return { category: asCounts(category), brand: asCounts(brand), price: priceCounts(price) };
    };

    // Unfiltered, public (active only): the kept counts.
    const active = (p: typeof products.$inferSelect) => p.status === 'active';
    expect(await facetsOf('')).toEqual(await bruteForce(active));

    // Filtered by brand: the brand facet ignores it, the others do not.
    const brand = brandList[0]!;
    const byBrand = await facetsOf(`brand=${brand.slug}`);
    const expectedByBrand = await bruteForce((p) => active(p) && p.brandId === brand.id);
    expect(byBrand.category).toEqual(expectedByBrand.category);
    expect(byBrand.price).toEqual(expectedByBrand.price);
    expect(byBrand.brand).toEqual((await bruteForce(active)).brand);

    // Filtered by category (its tree) and price: each facet under the other filter.
    const inRoot = (tree: Set<string>) => tree.has(root.id);
    const cheap = (p: typeof products.$inferSelect) => p.price <= 40000;
    const both = await facetsOf(`category=${root.slug}&price_max=400`);
    expect(both.brand).toEqual((await bruteForce((p, t) => active(p) && inRoot(t) && cheap(p))).brand);
    expect(both.category).toEqual((await bruteForce((p) => active(p) && cheap(p))).category);
    expect(both.price).toEqual((await bruteForce((p, t) => active(p) && inRoot(t))).price);

    // Staff see every status, and may filter on one.
    expect(await facetsOf('', key)).toEqual(await bruteForce(() => true));
    expect(await facetsOf('status=draft', key)).toEqual(await bruteForce((p) => p.status === 'draft'));
  });

  it('names categories and brands, gives price buckets in major units, and refuses an unknown facet', async () => {
    const key = await adminKey();
    const w = `w${uid()}`;
    const brand = await createBrand(key, { name: `Brand ${w}` });
    const category = await createCategory(key, { name: `Category ${w}` });
    await createProduct(key, { name: `One ${w}`, price: 12, brandId: brand.id, categoryIds: [category.id] });
    await createProduct(key, { name: `Two ${w}`, price: 30, brandId: brand.id });
    const res = await api(`/api/products?q=${w}&facets=brand,price,category`);
    expect(res.body.facets).toEqual({
      brand: [{ id: brand.id, name: brand.name, slug: brand.slug, count: 2 }],
      category: [{ id: category.id, name: category.name, slug: category.slug, count: 1 }],
      price: [
        { min: 10, max: 25, count: 1 },
        { min: 25, max: 50, count: 1 },
      ],
    });
    expect((await api(`/api/products?q=${w}`)).body.facets).toBeUndefined();
    expectError(await api('/api/products?facets=colour'), 400, 'INVALID_REQUEST');
  });

  it("counts a vendor user's own products only", async () => {
    const key = await adminKey();
    const { vendor, token } = await insertVendorUser();
    const brand = await createBrand(key);
    await createProduct(key, { brandId: brand.id, vendorId: vendor.id });
    await createProduct(key, { brandId: brand.id });
    const res = await api('/api/products?facets=brand', { key: token });
    expect(res.body.facets.brand.find((b: { id: string }) => b.id === brand.id)?.count).toBe(1);
  });
});
