import { beforeAll, describe, expect, it } from 'vitest';
import { currencies } from '../../src/db/schema';
import { getProduct } from '../../src/modules/products/products.read';
import { createProduct } from '../../src/modules/products/products.service';
import { createUser } from '../../src/modules/users/users.service';
import { db, uid } from '../helpers';
import { csrfIn, errorOf, get, post, signIn } from './panel-client';

// The product and variant forms: a row of own prices per currency other than the default, and the tax class.

let session: string;
beforeAll(async () => {
  await db()
    .insert(currencies)
    .values([
      { code: 'EUR', name: 'Euro', symbol: '€', minorUnits: 2, exchangeRate: '0.9' },
      { code: 'JPY', name: 'Yen', symbol: '¥', minorUnits: 0, exchangeRate: '150' },
    ]);
  const email = `admin-${uid()}@example.com`;
  await createUser(db(), { email, password: 'correct horse battery', roleId: 'admin', vendorId: null });
  session = (await signIn(email, 'correct horse battery')).session;
});

const staffView = { staff: true };

describe('admin product form: prices per currency and tax class', () => {
  it('offers a row per non-default currency and a tax class select, and creates the product with them', async () => {
    const form = await get('/admin/products/new', session);
    expect(form.html).toContain('name="prices.EUR.amount"');
    expect(form.html).toContain('name="prices.JPY.compareAt"');
    expect(form.html).not.toContain('name="prices.USD.amount"');
    expect(form.html).toMatch(/<select id="f-taxClass" name="taxClass">[\s\S]*<option value="reduced">Reduced rate<\/option>/);
    const name = `Panel priced ${uid()}`;
    const created = await post(
      '/admin/products/new',
      { _csrf: csrfIn(form.html), name, price: '32', 'prices.EUR.amount': '29.90', 'prices.EUR.compareAt': '34.90', 'prices.JPY.amount': '', taxClass: 'reduced' },
      session,
    );
    expect(created.res.status).toBe(303);
    const id = created.res.headers.get('Location')!.split('/').pop()!;
    const product = await getProduct(db(), id, staffView);
    expect(product).toMatchObject({ name, taxClass: 'reduced', prices: [{ currency: 'EUR', amount: 29.9, compareAt: 34.9 }] });
    expect(product.variants[0]!.prices).toEqual([{ currency: 'EUR', amount: 29.9, compareAt: 34.9 }]);
    // The edit page shows them back.
    const edit = (await get(`/admin/products/${id}`, session)).html;
    expect(edit).toContain('name="prices.EUR.amount" type="number" value="29.9"');
    expect(edit).toMatch(/<option value="reduced" selected="">Reduced rate<\/option>|<option value="reduced" selected>Reduced rate<\/option>/);
  });

  it('shows a price too precise for its currency next to its field, and clears a price left blank', async () => {
    const product = await createProduct(db(), { name: `Edited ${uid()}`, price: 10, prices: [{ currency: 'EUR', amount: 9 }] });
    const page = await get(`/admin/products/${product.id}`, session);
    const base = { _csrf: csrfIn(page.html), name: product.name, slug: product.slug, price: '10', status: 'active', taxClass: 'standard' };
    const bad = await post(`/admin/products/${product.id}`, { ...base, 'prices.EUR.amount': '9', 'prices.JPY.amount': '1500.5' }, session);
    expect(bad.res.status).toBe(422);
    expect(errorOf(bad.html, 'prices-JPY-amount')).toMatch(/at most 0 decimals/);
    expect(bad.html).toContain('value="1500.5"');
    const cleared = await post(`/admin/products/${product.id}`, { ...base, 'prices.EUR.amount': '', 'prices.JPY.amount': '1500' }, session);
    expect(cleared.res.status).toBe(303);
    expect((await getProduct(db(), product.id, staffView)).prices).toEqual([{ currency: 'JPY', amount: 1500, compareAt: null }]);
  });

  it("sets a variant's own prices from its form", async () => {
    const product = await createProduct(db(), { name: `Sized ${uid()}`, price: 10, variants: [{ sku: `S-${uid()}`, options: { size: 'S' } }] });
    const variant = product.variants[0]!;
    const page = await get(`/admin/products/${product.id}`, session);
    expect(page.html).toContain(`name="${variant.id}.prices.EUR.amount"`);
    const saved = await post(
      `/admin/products/${product.id}/variants/${variant.id}`,
      { _csrf: csrfIn(page.html), variantKey: variant.id, [`${variant.id}.options`]: 'size=S', [`${variant.id}.price`]: '10', [`${variant.id}.prices.EUR.amount`]: '8.50' },
      session,
    );
    expect(saved.res.status).toBe(303);
    expect((await getProduct(db(), product.id, staffView)).variants[0]!.prices).toEqual([{ currency: 'EUR', amount: 8.5, compareAt: null }]);
  });
});
