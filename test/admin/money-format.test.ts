import { beforeAll, describe, expect, it } from 'vitest';
import { currencies } from '../../src/db/schema';
import { adminKey, api, createProduct, db, uid } from '../helpers';
import { get } from './panel-client';
import { signedIn } from './people-client';

/**
 * Amounts in the panel carry their currency's decimals from the currencies table (src/admin/money.ts,
 * src/lib/money.ts): a yen amount has none, a dinar amount three, never a fixed two.
 */

let key: string;
let session: string;
beforeAll(async () => {
  await db()
    .insert(currencies)
    .values([
      { code: 'JPY', name: 'Yen', symbol: '¥', minorUnits: 0, exchangeRate: '150' },
      { code: 'KWD', name: 'Dinar', symbol: 'KD', minorUnits: 3, exchangeRate: '0.3' },
    ])
    .onConflictDoNothing();
  key = await adminKey();
  session = (await signedIn('admin')).session;
});

/** A variant priced 1200 JPY and 1.234 KWD (own prices). */
async function variant() {
  const product = await createProduct(key, {
    price: 8,
    stock: 10,
    prices: [
      { currency: 'JPY', amount: 1200 },
      { currency: 'KWD', amount: 1.234 },
    ],
  });
  return product.variants[0].id as string;
}

/** An order of one unit of variant(), placed by staff in `currency`. */
async function orderIn(currency: 'JPY' | 'KWD') {
  const res = await api('/api/orders', { method: 'POST', key, json: { currency, email: `money-${uid()}@example.test`, lines: [{ variantId: await variant(), quantity: 1 }] } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string; number: number; total: number };
}

describe("the panel shows amounts with their currency's decimals", () => {
  it('a yen order reads 1200 JPY, never 1200.00; a dinar order 1.234 KWD, never 1.23', async () => {
    const yen = await orderIn('JPY');
    const dinar = await orderIn('KWD');
    expect([yen.total, dinar.total]).toEqual([1200, 1.234]);

    const yenPage = await get(`/admin/orders/${yen.number}`, session);
    expect(yenPage.res.status).toBe(200);
    expect(yenPage.html).toContain('<strong>1200 JPY</strong>');
    expect(yenPage.html).not.toMatch(/\d\.\d\d JPY/);
    // The payment form's amount takes whole yen.
    expect(yenPage.html).toMatch(/name="amount"[^>]*step="1"|step="1"[^>]*name="amount"/);

    const dinarPage = await get(`/admin/orders/${dinar.number}`, session);
    expect(dinarPage.html).toContain('<strong>1.234 KWD</strong>');
    expect(dinarPage.html).not.toContain('1.23 KWD');
    expect(dinarPage.html).toContain('0.000 KWD');

    const list = await get('/admin/orders', session);
    expect(list.html).toContain('1200 JPY');
    expect(list.html).toContain('1.234 KWD');
    expect(list.html).not.toMatch(/\d\.\d\d JPY|\d\.\d\d KWD/);
  });

  it("a gift card's balance and a cart's total have their currency's decimals too", async () => {
    const card = await api('/api/gift-cards', { method: 'POST', key, json: { amount: 1.5, currency: 'KWD' } });
    expect(card.status, JSON.stringify(card.body)).toBe(201);
    const yenCard = await api('/api/gift-cards', { method: 'POST', key, json: { amount: 5000, currency: 'JPY' } });
    expect(yenCard.status).toBe(201);
    const cards = await get('/admin/gift-cards', session);
    expect(cards.html).toContain('1.500 KWD');
    expect(cards.html).toContain('5000 JPY');
    expect(cards.html).not.toContain('5000.00 JPY');

    const email = `cart-${uid()}@example.test`;
    const cart = (await api('/api/carts', { method: 'POST', json: { currency: 'KWD', email } })).body.data;
    const added = await api(`/api/carts/${cart.id}/lines`, { method: 'POST', headers: { 'X-Cart-Token': cart.token }, json: { variantId: await variant(), quantity: 2 } });
    expect(added.body.data.totals.total).toBe(2.468);
    const carts = await get(`/admin/carts?email=${encodeURIComponent(email)}`, session);
    expect(carts.html).toContain('2.468 KWD');
  });
});
