import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { currencies, products, taxRates } from '../../src/db/schema';
import { adminKey, api, createProduct, db, uid } from '../helpers';
import { get } from './panel-client';
import { signedIn } from './people-client';

/** The panel's order page shows how an order was taxed: each line's rate, and tax by rate, inside the prices or on top. */

describe('admin order page: taxes', () => {
  it("shows each line's rate and the tax by rate of an order and a cart whose prices include tax", async () => {
    const key = await adminKey();
    await db().insert(currencies).values({ code: 'EUR', name: 'Euro', symbol: '€', minorUnits: 2, exchangeRate: '0.92', pricesIncludeTax: true });
    await db()
      .insert(taxRates)
      .values([
        { id: `tax_${uid()}`, name: 'MwSt', country: 'DE', rate: '19' },
        { id: `tax_${uid()}`, name: 'MwSt ermäßigt', country: 'DE', rate: '7', taxClass: 'reduced' },
      ]);
    const shirt = await createProduct(key, { price: 32.5, stock: 5, status: 'active' });
    const book = await createProduct(key, { price: 16.3, stock: 5, status: 'active' });
    await db().update(products).set({ taxClass: 'reduced' }).where(eq(products.id, book.id));
    const address = { line1: '1 Hauptstr.', city: 'Berlin', postalCode: '10115', country: 'DE' };
    const lines = [shirt, book].map((p) => ({ variantId: p.variants[0].id, quantity: 1 }));
    const order = await api('/api/orders', { method: 'POST', key, json: { email: `t-${uid()}@example.test`, currency: 'EUR', shippingAddress: address, lines } });
    expect(order.status, JSON.stringify(order.body)).toBe(201);

    const { session } = await signedIn('admin');
    const page = await get(`/admin/orders/${order.body.data.id}`, session);
    expect(page.html).toContain('(included in prices)');
    expect(page.html).toMatch(/data-tax-rate="19"[^>]*>\s*<br\s*\/?>\s*19% on [^:]*25\.13[^:]*: [^<]*4\.77/);
    expect(page.html).toMatch(/data-tax-rate="7"[^>]*>\s*<br\s*\/?>\s*7% on [^:]*14\.02[^:]*: [^<]*0\.98/);
    expect(page.html).toMatch(/4\.77[^<]*\(19%\)/);
    expect(page.html).toMatch(/0\.98[^<]*\(7%\)/);

    const email = `c-${uid()}@example.test`;
    const cart = (await api('/api/carts', { method: 'POST', json: { email, currency: 'EUR' } })).body.data;
    const asShopper = { 'X-Cart-Token': cart.token };
    for (const line of lines) expect((await api(`/api/carts/${cart.id}/lines`, { method: 'POST', headers: asShopper, json: line })).status).toBe(200);
    expect((await api(`/api/carts/${cart.id}`, { method: 'PATCH', headers: asShopper, json: { shippingAddress: address } })).status).toBe(200);
    const carts = await get(`/admin/carts?email=${encodeURIComponent(email)}`, session);
    expect(carts.html).toMatch(/data-tax-rate="19"[^>]*>\s*tax 19% 4\.77 EUR incl\./);
    expect(carts.html).toMatch(/data-tax-rate="7"[^>]*>\s*tax 7% 0\.98 EUR incl\./);
  });
});
