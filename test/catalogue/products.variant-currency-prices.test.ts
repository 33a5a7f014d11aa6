import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { finished, upload } from '../imports/import-client';
import { adminKey, api, createBrand, createCategory, createProduct, tick, uid } from '../helpers';
import { call, cartOf } from '../commerce/shopper-cart';

// A variant's own price in another currency is the price a product is listed, filtered and sorted
// at there (products.currency.ts, products.variant_prices): a $40.00 product whose only variant has
// its own price of €24.00 is a €24.00 product in every list in EUR, as a cart in EUR charges it,
// where the exchange rate alone (0.92 per USD here) would make it €36.80. Beside it, $32.61 converts
// to €30.00 and $20.00 to €18.40.

let key: string;
beforeAll(async () => {
  key = await adminKey();
  const add = (json: Record<string, unknown>) => api('/api/settings/currencies', { method: 'POST', key, json });
  expect((await add({ code: 'EUR', name: 'Euro', symbol: '€', minorUnits: 2, exchangeRate: 0.92 })).status).toBe(201);
});

const firstWords = (res: { body: { data: { name: string }[] } }) => res.body.data.map((p) => p.name.split(' ')[0]);
const priced = (res: { body: { data: { name: string; price: number; currency: string }[] } }) => res.body.data.map((p) => [p.name.split(' ')[0], p.price, p.currency]);

/** A product of `brand` and `category` whose only variant gets its own EUR price afterwards, through the variant route. */
async function withOwnVariantPrice(body: Record<string, unknown>, amount: number) {
  const product = await createProduct(key, { stock: 10, ...body });
  const patched = await api(`/api/products/${product.id}/variants/${product.variants[0].id}`, { method: 'PATCH', key, json: { prices: [{ currency: 'EUR', amount }] } });
  expect(patched.status, JSON.stringify(patched.body)).toBe(200);
  return product;
}

describe('lists in EUR price a product at its variant’s own EUR price', () => {
  let brand: string;
  let category: string;
  let token: string;
  let own: { id: string; variants: [{ id: string }] };
  beforeAll(async () => {
    const b = await createBrand(key);
    const c = await createCategory(key);
    brand = b.slug;
    category = c.slug;
    token = uid();
    const body = (name: string, price: number) => ({ name: `${name} ${token}`, price, brandId: b.id, categoryIds: [c.id] });
    own = await withOwnVariantPrice(body('Own', 40), 24);
    await createProduct(key, body('Thirty', 32.61));
    await createProduct(key, body('Cheap', 20));
  });

  it('shows it at €24.00 in the list, on its page and in a cart in EUR; in dollars at $40.00 as before', async () => {
    const list = await api(`/api/products?brand=${brand}&currency=EUR&sort=name`);
    expect(list.status).toBe(200);
    expect(priced(list)).toEqual([
      ['Cheap', 18.4, 'EUR'],
      ['Own', 24, 'EUR'],
      ['Thirty', 30, 'EUR'],
    ]);
    expect(list.body.data[1].variants[0].price).toBe(24);
    expect((await api(`/api/products/${own.id}?currency=EUR`)).body.data).toMatchObject({ price: 24, compareAtPrice: null, variants: [{ price: 24 }] });
    const cart = await cartOf([[own.variants[0].id, 1]], undefined, undefined, { currency: 'EUR' });
    expect((await call(cart, '')).body.data.lines[0].unitPrice).toBe(24);
    const usd = await api(`/api/products?brand=${brand}&sort=price:asc`);
    expect(priced(usd)).toEqual([
      ['Cheap', 20, 'USD'],
      ['Thirty', 32.61, 'USD'],
      ['Own', 40, 'USD'],
    ]);
    expect(firstWords(await api(`/api/products?brand=${brand}&price_max=25`))).toEqual(['Cheap']);
  });

  // The plain list (brand), the category listing (category_listing without a price filter or sort,
  // products with the category as a condition with one) and the search index (q).
  const scopes = () => ({ plain: `brand=${brand}`, category: `category=${category}`, search: `q=${token}` });
  for (const path of ['plain', 'category', 'search'] as const) {
    it(`${path} list: shown at 24, found by price_max=25 and not by price_min=30, sorted by 24`, async () => {
      const scope = scopes()[path];
      const shown = await api(`/api/products?${scope}&currency=EUR`);
      expect(shown.status).toBe(200);
      expect(shown.body.data.find((p: { id: string }) => p.id === own.id)).toMatchObject({ price: 24, currency: 'EUR' });
      const under = await api(`/api/products?${scope}&currency=EUR&price_max=25&sort=name`);
      expect(priced(under)).toEqual([
        ['Cheap', 18.4, 'EUR'],
        ['Own', 24, 'EUR'],
      ]);
      expect(under.body.pagination.total).toBe(2);
      const over = await api(`/api/products?${scope}&currency=EUR&price_min=30`);
      expect(firstWords(over)).toEqual(['Thirty']);
      expect(over.body.pagination.total).toBe(1);
      expect(firstWords(await api(`/api/products?${scope}&currency=EUR&price_min=24&price_max=24`))).toEqual(['Own']);
      expect(firstWords(await api(`/api/products?${scope}&currency=EUR&sort=price:asc`))).toEqual(['Cheap', 'Own', 'Thirty']);
      expect(firstWords(await api(`/api/products?${scope}&currency=EUR&sort=price:desc`))).toEqual(['Thirty', 'Own', 'Cheap']);
    });
  }

  it('counts facets under the price filters in EUR by the same price, with and without a search', async () => {
    for (const scope of [`brand=${brand}`, `q=${token}`]) {
      const under = await api(`/api/products?${scope}&currency=EUR&price_max=25&facets=brand,category`);
      expect(under.status).toBe(200);
      expect(under.body.facets.brand, scope).toEqual([expect.objectContaining({ slug: brand, count: 2 })]);
      expect(under.body.facets.category, scope).toEqual([expect.objectContaining({ slug: category, count: 2 })]);
      const over = await api(`/api/products?${scope}&currency=EUR&price_min=30&facets=brand`);
      expect(over.body.facets.brand, scope).toEqual([expect.objectContaining({ slug: brand, count: 1 })]);
    }
  });

  it('selects the same price with fields=', async () => {
    const res = await api(`/api/products?brand=${brand}&currency=EUR&price_max=25&sort=price:desc&fields=name,price,currency`);
    expect(res.body.data).toEqual([
      { name: `Own ${token}`, price: 24, currency: 'EUR' },
      { name: `Cheap ${token}`, price: 18.4, currency: 'EUR' },
    ]);
  });

  it('reads no variant row to filter and sort by it: the product rows alone', async () => {
    const rowsRead = async () =>
      Number((await api(`/api/products?brand=${brand}&currency=EUR&sort=price:asc&price_max=25`, { headers: { 'Cache-Control': 'no-cache' } })).headers.get('X-D1-Rows-Read'));
    const before = await rowsRead();
    expect(before).toBeGreaterThan(0);
    // Twenty more variants on the product: a list that read them would read twenty more rows.
    for (let i = 0; i < 20; i++) {
      expect((await api(`/api/products/${own.id}/variants`, { method: 'POST', key, json: { sku: `V-${uid()}`, options: { n: String(i) } } })).status).toBe(201);
    }
    expect(await rowsRead()).toBe(before);
    // The new variants cost the product's converted $40 (€36.80): the own €24 is still the cheapest.
    expect(priced(await api(`/api/products?brand=${brand}&currency=EUR&price_max=25&sort=name`))).toEqual([
      ['Cheap', 18.4, 'EUR'],
      ['Own', 24, 'EUR'],
    ]);
  });
});

describe('which price a product with several variants is listed at in EUR', () => {
  let brand: { id: string; slug: string };
  beforeAll(async () => {
    brand = await createBrand(key);
  });
  const listed = async (query = 'sort=name') => priced(await api(`/api/products?brand=${brand.slug}&currency=EUR&${query}`));
  const product = (name: string, body: Record<string, unknown>) => createProduct(key, { name: `${name} ${uid()}`, brandId: brand.id, ...body });

  it('the cheapest variant, own or converted, when one has its own price; else the product’s own or converted price as before', async () => {
    // $40 and $50 with its own €24 (was €28): €24, and its compare-at price with it.
    await product('Dear', {
      price: 40,
      variants: [
        { sku: `A-${uid()}`, options: { size: 'S' } },
        { sku: `B-${uid()}`, options: { size: 'M' }, price: 50, prices: [{ currency: 'EUR', amount: 24, compareAt: 28 }] },
      ],
    });
    // $20 (€18.40) and one with its own €50: the converted €18.40 is cheaper.
    await product('Mixed', {
      price: 20,
      variants: [
        { sku: `A-${uid()}`, options: { size: 'S' } },
        { sku: `B-${uid()}`, options: { size: 'M' }, prices: [{ currency: 'EUR', amount: 50 }] },
      ],
    });
    // The product's own €9 and variants without one: €9, as before.
    await product('Plain', { price: 40, prices: [{ currency: 'EUR', amount: 9 }], variants: [{ sku: `A-${uid()}`, options: { size: 'S' } }] });
    const res = await api(`/api/products?brand=${brand.slug}&currency=EUR&sort=price:asc`);
    expect(priced(res)).toEqual([
      ['Plain', 9, 'EUR'],
      ['Mixed', 18.4, 'EUR'],
      ['Dear', 24, 'EUR'],
    ]);
    expect(res.body.data[2].compareAtPrice).toBe(28);
    expect(await listed('price_min=18.4&price_max=18.4')).toEqual([['Mixed', 18.4, 'EUR']]);
    expect(await listed('price_min=18.41&price_max=24')).toEqual([['Dear', 24, 'EUR']]);
  });
});

describe('every write that changes a variant’s price renders lists in EUR anew', () => {
  it('variant update, create and delete, the product’s prices, and kept answers', async () => {
    const brand = await createBrand(key);
    const token = uid();
    const p = await withOwnVariantPrice({ name: `Own ${token}`, price: 40, brandId: brand.id }, 24);
    const variant = `/api/products/${p.id}/variants`;
    const path = `/api/products?brand=${brand.slug}&currency=EUR&price_max=25`;
    const listedAt = async () => {
      await tick();
      const res = await api(path);
      expect(res.headers.get('X-Store-Cache'), 'a kept answer after a write').not.toBe('hit');
      return res.body.data.map((x: { price: number }) => x.price);
    };
    expect(await listedAt()).toEqual([24]);
    await tick();
    expect((await api(path)).headers.get('X-Store-Cache')).toBe('hit');

    expect((await api(`${variant}/${p.variants[0].id}`, { method: 'PATCH', key, json: { prices: [{ currency: 'EUR', amount: 35 }] } })).status).toBe(200);
    expect(await listedAt()).toEqual([]);
    const added = await api(variant, { method: 'POST', key, json: { sku: `B-${uid()}`, options: { size: 'M' }, price: 60, prices: [{ currency: 'EUR', amount: 21 }] } });
    expect(added.status).toBe(201);
    expect(await listedAt()).toEqual([21]);
    expect((await api(`${variant}/${added.body.data.id}`, { method: 'DELETE', key })).status).toBe(204);
    expect(await listedAt()).toEqual([]);
    // Its only variant again: the product's prices pass on to it.
    expect((await api(`/api/products/${p.id}`, { method: 'PATCH', key, json: { prices: [{ currency: 'EUR', amount: 23 }] } })).status).toBe(200);
    expect(await listedAt()).toEqual([23]);
    // Without a variant's own price, the product's own price, as before.
    expect((await api(`${variant}/${p.variants[0].id}`, { method: 'PATCH', key, json: { prices: [] } })).status).toBe(200);
    expect(await listedAt()).toEqual([23]);
    expect((await api(`/api/products/${p.id}`, { method: 'PATCH', key, json: { prices: [] } })).status).toBe(200);
    expect(await listedAt()).toEqual([]);
    expect((await api(`/api/products?brand=${brand.slug}&currency=EUR`)).body.data[0].price).toBe(36.8);
  });

  it('a refresh of products.related rebuilds it, as migration 0073 fills it for the products that existed', async () => {
    const brand = await createBrand(key);
    const p = await withOwnVariantPrice({ name: `Old ${uid()}`, price: 40, brandId: brand.id }, 24);
    await env.DB.prepare(`UPDATE products SET variant_prices = '{}' WHERE id = ?`).bind(p.id).run();
    const path = `/api/products?brand=${brand.slug}&currency=EUR&price_max=25`;
    expect((await api(path, { headers: { 'Cache-Control': 'no-cache' } })).body.data).toEqual([]);
    await env.DB.prepare(`INSERT INTO product_related_refresh (product_id) SELECT DISTINCT product_id FROM product_variants WHERE prices <> '{}'`).run();
    const { results } = await env.DB.prepare('SELECT variant_prices FROM products WHERE id = ?').bind(p.id).all<{ variant_prices: string }>();
    expect(JSON.parse(results[0]!.variant_prices)).toEqual({ EUR: { own: 2400, toConvert: null } });
    expect((await api(path, { headers: { 'Cache-Control': 'no-cache' } })).body.data.map((x: { price: number }) => x.price)).toEqual([24]);
  });

  it('an import’s variant prices', async () => {
    const tag = uid();
    const csv = [
      'handle,name,price,status,option1_name,option1_value,variant_sku,variant_price_eur',
      `imported-${tag},Imported ${tag},40,active,Size,S,IMP-${tag}-S,`,
      `imported-${tag},,,,Size,M,IMP-${tag}-M,24`,
    ].join('\n');
    expect((await finished(key, (await upload(key, csv)).body.data.id)).done).toMatchObject({ created: 1 });
    const res = await api(`/api/products?q=${tag}&currency=EUR&price_max=25`);
    expect(priced(res)).toEqual([['Imported', 24, 'EUR']]);
  });

  it('a new exchange rate: the converted variants are converted at it, the own prices stay', async () => {
    expect((await api('/api/settings/currencies', { method: 'POST', key, json: { code: 'GBP', name: 'Pound', symbol: '£', exchangeRate: 0.5 } })).status).toBe(201);
    const brand = await createBrand(key);
    await createProduct(key, {
      name: `Both ${uid()}`,
      brandId: brand.id,
      price: 20,
      variants: [
        { sku: `A-${uid()}`, options: { size: 'S' } },
        { sku: `B-${uid()}`, options: { size: 'M' }, price: 50, prices: [{ currency: 'GBP', amount: 24 }] },
      ],
    });
    const path = `/api/products?brand=${brand.slug}&currency=GBP`;
    const shown = async (query: string) => (await api(`${path}&${query}`)).body.data.map((x: { price: number }) => x.price);
    expect(await shown('price_max=10')).toEqual([10]);
    expect((await api('/api/settings/currencies/GBP', { method: 'PATCH', key, json: { exchangeRate: 2 } })).status).toBe(200);
    await tick();
    expect(await shown('price_max=10')).toEqual([]);
    expect(await shown('price_max=24&price_min=24&sort=price')).toEqual([24]);
  });
});
