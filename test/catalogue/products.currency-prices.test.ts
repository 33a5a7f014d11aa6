import { beforeAll, describe, expect, it } from 'vitest';
import { adminKey, api, createBrand, createCategory, createProduct, expectError, uid } from '../helpers';

// Prices per currency: a product's or variant's own EUR price wins over conversion in what the
// API shows, filters and sorts by. EUR here is 0.5 per USD (the default), so a product at $10 without
// an own price shows €5.00.

let key: string;
beforeAll(async () => {
  key = await adminKey();
  const add = (json: Record<string, unknown>) => api('/api/settings/currencies', { method: 'POST', key, json });
  expect((await add({ code: 'EUR', name: 'Euro', symbol: '€', minorUnits: 2, exchangeRate: 0.5 })).status).toBe(201);
  expect((await add({ code: 'JPY', name: 'Yen', symbol: '¥', minorUnits: 0, exchangeRate: 150 })).status).toBe(201);
  expect((await add({ code: 'SEK', name: 'Krona', symbol: 'kr', minorUnits: 2, exchangeRate: 10, enabled: false })).status).toBe(201);
});

const names = (res: { body: { data: { name: string }[] } }) => res.body.data.map((p) => p.name);

describe('prices and taxClass on product writes', () => {
  it('creates a simple product with its EUR price, mirrored to its variant, and reads it back', async () => {
    const p = await createProduct(key, { price: 32, prices: [{ currency: 'eur', amount: 29.9, compareAt: 34.9 }], taxClass: 'reduced' });
    expect(p.prices).toEqual([{ currency: 'EUR', amount: 29.9, compareAt: 34.9 }]);
    expect(p.taxClass).toBe('reduced');
    expect(p.currency).toBe('USD');
    expect(p.variants[0].prices).toEqual([{ currency: 'EUR', amount: 29.9, compareAt: 34.9 }]);
    const read = (await api(`/api/products/${p.id}`)).body.data;
    expect(read.prices).toEqual(p.prices);
    expect(read.variants[0].prices).toEqual(p.prices);
    expect(read.taxClass).toBe('reduced');
  });

  it('defaults the tax class to standard and refuses one that does not exist', async () => {
    expect((await createProduct(key)).taxClass).toBe('standard');
    const res = await api('/api/products', { method: 'POST', key, json: { name: `P ${uid()}`, price: 1, taxClass: 'luxury' } });
    expectError(res, 422, 'VALIDATION_ERROR');
    expect(res.body.error.details).toEqual([expect.objectContaining({ field: 'taxClass', code: 'not_found' })]);
  });

  it('refuses the default currency, an unknown one, too many decimals and a currency given twice, naming the field', async () => {
    const post = (prices: unknown) => api('/api/products', { method: 'POST', key, json: { name: `P ${uid()}`, price: 1, prices } });
    const fieldsOf = (res: { body: any }) => res.body.error.details.map((d: { field: string }) => d.field);
    const usd = await post([{ currency: 'USD', amount: 1 }]);
    expectError(usd, 422, 'VALIDATION_ERROR');
    expect(fieldsOf(usd)).toEqual(['prices.0.currency']);
    const unknown = await post([
      { currency: 'EUR', amount: 1 },
      { currency: 'XXX', amount: 1 },
    ]);
    expectError(unknown, 422, 'VALIDATION_ERROR');
    expect(unknown.body.error.details).toEqual([expect.objectContaining({ field: 'prices.1.currency', code: 'not_found' })]);
    const yen = await post([{ currency: 'JPY', amount: 1500.5 }]);
    expectError(yen, 422, 'VALIDATION_ERROR');
    expect(fieldsOf(yen)).toEqual(['prices.0.amount']);
    const twice = await post([
      { currency: 'EUR', amount: 1 },
      { currency: 'eur', amount: 2 },
    ]);
    expect(twice.status).toBe(422);
    expect(fieldsOf(twice)).toEqual(['prices.1.currency']);
    const variant = await api('/api/products', {
      method: 'POST',
      key,
      json: { name: `P ${uid()}`, price: 1, variants: [{ sku: `S-${uid()}` }, { sku: `S-${uid()}`, prices: [{ currency: 'USD', amount: 1 }] }] },
    });
    expect(variant.status).toBe(422);
    expect(fieldsOf(variant)).toEqual(['variants.1.prices.0.currency']);
  });

  it('PATCH replaces the set, leaves it when absent and clears it with []', async () => {
    const p = await createProduct(key, { prices: [{ currency: 'EUR', amount: 9 }] });
    const patch = (json: unknown) => api(`/api/products/${p.id}`, { method: 'PATCH', key, json });
    const replaced = await patch({ prices: [{ currency: 'JPY', amount: 1500 }] });
    expect(replaced.status).toBe(200);
    expect(replaced.body.data.prices).toEqual([{ currency: 'JPY', amount: 1500, compareAt: null }]);
    expect(replaced.body.data.variants[0].prices).toEqual([{ currency: 'JPY', amount: 1500, compareAt: null }]);
    expect((await patch({ name: `Renamed ${uid()}` })).body.data.prices).toEqual([{ currency: 'JPY', amount: 1500, compareAt: null }]);
    const cleared = await patch({ prices: [] });
    expect(cleared.body.data.prices).toEqual([]);
    const read = (await api(`/api/products/${p.id}`)).body.data;
    expect(read.prices).toEqual([]);
    expect(read.variants[0].prices).toEqual([]);
    expectError(await patch({ taxClass: 'nope' }), 422, 'VALIDATION_ERROR');
    expect((await patch({ taxClass: 'zero' })).body.data.taxClass).toBe('zero');
  });

  it("sets a variant's own prices through the variant routes", async () => {
    const p = await createProduct(key, { variants: [{ sku: `A-${uid()}`, options: { size: 'S' } }] });
    const path = `/api/products/${p.id}/variants`;
    const added = await api(path, { method: 'POST', key, json: { sku: `B-${uid()}`, options: { size: 'M' }, prices: [{ currency: 'EUR', amount: 7.5 }] } });
    expect(added.status).toBe(201);
    expect(added.body.data.prices).toEqual([{ currency: 'EUR', amount: 7.5, compareAt: null }]);
    const changed = await api(`${path}/${p.variants[0].id}`, { method: 'PATCH', key, json: { prices: [{ currency: 'EUR', amount: 6 }] } });
    expect(changed.body.data.prices).toEqual([{ currency: 'EUR', amount: 6, compareAt: null }]);
    const read = (await api(`/api/products/${p.id}`)).body.data;
    expect(read.variants.map((v: { prices: unknown }) => v.prices)).toEqual([
      [{ currency: 'EUR', amount: 6, compareAt: null }],
      [{ currency: 'EUR', amount: 7.5, compareAt: null }],
    ]);
    expectError(await api(`${path}/${p.variants[0].id}`, { method: 'PATCH', key, json: { prices: [{ currency: 'USD', amount: 1 }] } }), 422, 'VALIDATION_ERROR');
  });
});

describe('GET /api/products?currency=', () => {
  // $10 converts to €5.00; $20 has its own €3.00; $8 converts to €4.00; $9.99 converts to €5.00 (4.995 rounded half-up).
  let brand: string;
  let category: string;
  let token: string;
  beforeAll(async () => {
    const b = await createBrand(key);
    const c = await createCategory(key);
    brand = b.slug;
    category = c.slug;
    token = uid();
    const make = (name: string, body: Record<string, unknown>) => createProduct(key, { name: `${name} ${token}`, brandId: b.id, categoryIds: [c.id], ...body });
    await make('Ten', { price: 10 });
    await make('Twenty', { price: 20, compareAtPrice: 25, prices: [{ currency: 'EUR', amount: 3, compareAt: 3.5 }] });
    await make('Eight', { price: 8, compareAtPrice: 12 });
    await make('Almost', { price: 9.99 });
  });

  it('shows each product in EUR: its own price when set, else converted as a cart converts', async () => {
    const res = await api(`/api/products?brand=${brand}&currency=eur&sort=name`);
    expect(res.status).toBe(200);
    const shown = res.body.data.map((p: any) => [p.name.split(' ')[0], p.currency, p.price, p.compareAtPrice, p.variants[0].price, p.variants[0].compareAtPrice]);
    expect(shown).toEqual([
      ['Almost', 'EUR', 5, null, 5, null],
      ['Eight', 'EUR', 4, 6, 4, 6],
      ['Ten', 'EUR', 5, null, 5, null],
      ['Twenty', 'EUR', 3, 3.5, 3, 3.5],
    ]);
    const plain = await api(`/api/products?brand=${brand}&sort=name`);
    expect(plain.body.data.map((p: any) => [p.currency, p.price])).toEqual([
      ['USD', 9.99],
      ['USD', 8],
      ['USD', 10],
      ['USD', 20],
    ]);
    const yen = await api(`/api/products?brand=${brand}&currency=JPY&sort=name`);
    expect(yen.body.data.map((p: any) => p.price)).toEqual([1499, 1200, 1500, 3000]);
  });

  it('sorts by the price in EUR, own or converted, with a brand, a category or a search', async () => {
    const order = ['Twenty', 'Eight', 'Almost', 'Ten'];
    for (const scope of [`brand=${brand}`, `category=${category}`, `q=${token}`]) {
      const asc = await api(`/api/products?${scope}&currency=EUR&sort=price:asc,name`);
      expect(
        names(asc).map((n) => n.split(' ')[0]),
        scope,
      ).toEqual(order);
      const desc = await api(`/api/products?${scope}&currency=EUR&sort=price:desc,name:desc`);
      expect(
        names(desc).map((n) => n.split(' ')[0]),
        scope,
      ).toEqual([...order].reverse());
    }
    // In dollars Twenty is the dearest: the default currency's order is unchanged.
    const usd = await api(`/api/products?brand=${brand}&sort=price:asc`);
    expect(names(usd).map((n) => n.split(' ')[0])).toEqual(['Eight', 'Almost', 'Ten', 'Twenty']);
  });

  it('filters by price_min and price_max in EUR, exactly at the converted bounds', async () => {
    const within = async (query: string) => names(await api(`/api/products?brand=${brand}&currency=EUR&sort=name&${query}`)).map((n) => n.split(' ')[0]);
    expect(await within('price_max=4')).toEqual(['Eight', 'Twenty']);
    expect(await within('price_min=5')).toEqual(['Almost', 'Ten']);
    expect(await within('price_min=4.99&price_max=5')).toEqual(['Almost', 'Ten']);
    expect(await within('price_min=5.01')).toEqual([]);
    const inCategory = await api(`/api/products?category=${category}&currency=EUR&sort=name&price_max=3`);
    expect(names(inCategory).map((n) => n.split(' ')[0])).toEqual(['Twenty']);
    expect(inCategory.body.pagination.total).toBe(1);
    // The same bound in dollars selects by the dollar price.
    expect(names(await api(`/api/products?brand=${brand}&sort=name&price_max=4`))).toEqual([]);
    // In a currency without decimals: Twenty has no own yen price, so it is 3000 yen.
    expect(names(await api(`/api/products?brand=${brand}&currency=JPY&price_max=1500&sort=name`)).map((n) => n.split(' ')[0])).toEqual(['Almost', 'Eight', 'Ten']);
  });

  it('counts facets under the price filters in EUR', async () => {
    const res = await api(`/api/products?brand=${brand}&currency=EUR&price_max=4&facets=brand,category`);
    expect(res.status).toBe(200);
    expect(res.body.facets.brand).toEqual([expect.objectContaining({ slug: brand, count: 2 })]);
    expect(res.body.facets.category).toEqual([expect.objectContaining({ slug: category, count: 2 })]);
  });

  it('shows one product and its variants in EUR', async () => {
    const [twenty] = (await api(`/api/products?brand=${brand}&sort=price:desc`)).body.data;
    const res = await api(`/api/products/${twenty.id}?currency=EUR`);
    expect(res.body.data).toMatchObject({ currency: 'EUR', price: 3, compareAtPrice: 3.5, prices: [{ currency: 'EUR', amount: 3, compareAt: 3.5 }] });
    const variants = await api(`/api/products/${twenty.id}/variants?currency=EUR`);
    expect(variants.body.data.map((v: { price: number }) => v.price)).toEqual([3]);
    const variant = await api(`/api/products/${twenty.id}/variants/${twenty.variants[0].id}?currency=EUR`);
    expect(variant.body.data).toMatchObject({ price: 3, compareAtPrice: 3.5 });
    expect((await api(`/api/products/${twenty.id}/variants/${twenty.variants[0].id}`)).body.data).toMatchObject({ price: 20, compareAtPrice: 25 });
  });

  it('refuses a currency the store does not sell in: unknown or disabled', async () => {
    for (const code of ['XYZ', 'SEK']) {
      const res = await api(`/api/products?currency=${code}`);
      expectError(res, 422, 'VALIDATION_ERROR');
      expect(res.body.error.details[0].field).toBe('currency');
      expectError(await api(`/api/products/whatever?currency=${code}`), 422, 'VALIDATION_ERROR');
    }
    expectError(await api('/api/products?currency=EURO'), 400, 'INVALID_REQUEST');
    expectError(await api(`/api/products?brand=${brand}&currency=EUR&facets=price`), 400, 'INVALID_REQUEST');
  });

  it('keeps EUR and default answers apart in the caches and their ETags', async () => {
    const path = `/api/products?brand=${brand}&sort=name`;
    const usd1 = await api(path);
    const eur1 = await api(`${path}&currency=EUR`);
    const usd2 = await api(path);
    const eur2 = await api(`${path}&currency=EUR`);
    expect(usd2.headers.get('X-Store-Cache')).toBe('hit');
    expect(eur2.headers.get('X-Store-Cache')).toBe('hit');
    expect(usd2.body.data.map((p: any) => p.currency)).toEqual(['USD', 'USD', 'USD', 'USD']);
    expect(eur2.body.data.map((p: any) => p.currency)).toEqual(['EUR', 'EUR', 'EUR', 'EUR']);
    expect(eur1.headers.get('ETag')).not.toBe(usd1.headers.get('ETag'));
    // The default answer's ETag does not answer the EUR URL with a 304.
    const conditional = await api(`${path}&currency=EUR`, { headers: { 'If-None-Match': usd1.headers.get('ETag')! } });
    expect(conditional.status).toBe(200);
    expect(conditional.body.data[0].currency).toBe('EUR');
  });

  it('renders a currency anew once its rate changes or it is disabled: currencies are part of the catalogue version', async () => {
    const add = await api('/api/settings/currencies', { method: 'POST', key, json: { code: 'CHF', name: 'Franc', symbol: 'CHF', exchangeRate: 2 } });
    expect(add.status).toBe(201);
    const path = `/api/products?brand=${brand}&sort=name&currency=CHF`;
    const before = await api(path);
    expect((await api(path)).headers.get('X-Store-Cache')).toBe('hit');
    expect((await api('/api/settings/currencies/CHF', { method: 'PATCH', key, json: { exchangeRate: 4 } })).status).toBe(200);
    const after = await api(path);
    expect(after.headers.get('X-Store-Cache')).not.toBe('hit');
    const converted = (res: any) => res.body.data.map((p: any) => p.price);
    expect(converted(after)).toEqual(converted(before).map((price: number) => Math.round(price * 200) / 100));
    expect((await api('/api/settings/currencies/CHF', { method: 'PATCH', key, json: { enabled: false } })).status).toBe(200);
    expectError(await api(path), 422, 'VALIDATION_ERROR');
  });
});
