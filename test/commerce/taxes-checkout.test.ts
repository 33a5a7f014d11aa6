import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { currencies, productVariants, products, shippingMethods, taxRates } from '../../src/db/schema';
import { adminKey, api, createProduct, db, uid } from '../helpers';

// Taxes end to end (docs/api.md, Taxes): a German shop whose euro prices include VAT and whose
// dollar prices do not. Euro prices here are converted from dollars at 0.92: $32.50 is €29.90 and
// $16.30 is €15.00.

const berlin = { line1: '1 Hauptstr.', city: 'Berlin', postalCode: '10115', country: 'DE' };
const newYork = { line1: '1 Main St', city: 'New York', region: 'NY', postalCode: '10001', country: 'US' };

let key: string;
let shirt: string;
let book: string;

async function product(price: number, taxClass: string, stock = 100) {
  const created = await createProduct(key, { price, stock, status: 'active', sku: `T-${uid()}` });
  // The product's class is written here so this test does not depend on the product API's field.
  await db().update(products).set({ taxClass }).where(eq(products.id, created.id));
  return created.variants[0].id as string;
}

const newCart = async (currency: string, shippingAddress: object) => {
  const cart = await api('/api/carts', { method: 'POST', key, json: { currency, email: `tax-${uid()}@example.test` } });
  expect(cart.status, JSON.stringify(cart.body)).toBe(201);
  const id = cart.body.data.id as string;
  const addressed = await api(`/api/carts/${id}`, { method: 'PATCH', key, json: { shippingAddress } });
  expect(addressed.status, JSON.stringify(addressed.body)).toBe(200);
  return id;
};
const addLine = (cart: string, variantId: string, quantity = 1) => api(`/api/carts/${cart}/lines`, { method: 'POST', key, json: { variantId, quantity } });
const placeOrder = (currency: string, lines: { variantId: string; quantity: number }[], shippingAddress: object) =>
  api('/api/orders', { method: 'POST', key, json: { email: `tax-${uid()}@example.test`, currency, lines, shippingAddress } });

const fetchCsv = async (path: string) => {
  const res = await api(path, { key });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return String(res.body).trim().split(/\r?\n/);
};

beforeAll(async () => {
  key = await adminKey();
  await db().insert(currencies).values({ code: 'EUR', name: 'Euro', symbol: '€', minorUnits: 2, exchangeRate: '0.92', pricesIncludeTax: true });
  await db()
    .insert(taxRates)
    .values([
      { id: `tax_${uid()}`, name: 'MwSt', country: 'DE', rate: '19', taxClass: 'standard' },
      { id: `tax_${uid()}`, name: 'MwSt ermäßigt', country: 'DE', rate: '7', taxClass: 'reduced' },
      { id: `tax_${uid()}`, name: 'NY sales tax', country: 'US', region: 'NY', rate: '8.875', taxClass: 'standard' },
    ]);
  shirt = await product(32.5, 'standard');
  book = await product(16.3, 'reduced');
});

describe('taxes at checkout', () => {
  it('charges the €29.90 shirt €29.90 with €4.77 VAT inside, and the book at the reduced 7%', async () => {
    const cart = await newCart('EUR', berlin);
    await addLine(cart, shirt);
    const res = await addLine(cart, book);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const data = res.body.data;
    expect(data.pricesIncludeTax).toBe(true);
    expect(data.lines.map((l: any) => [l.unitPrice, l.taxClass, l.taxRate, l.taxAmount, l.total])).toEqual([
      [29.9, 'standard', 19, 4.77, 29.9], // 2990 × 19 / 119 = 477.39
      [15, 'reduced', 7, 0.98, 15], // 1500 × 7 / 107 = 98.13
    ]);
    expect(data.totals).toMatchObject({ subtotal: 44.9, taxTotal: 5.75, total: 44.9 });
    expect(data.totals.taxBreakdown).toEqual([
      { rate: 19, netAmount: 25.13, taxAmount: 4.77 },
      { rate: 7, netAmount: 14.02, taxAmount: 0.98 },
    ]);

    const order = await placeOrder(
      'EUR',
      [
        { variantId: shirt, quantity: 1 },
        { variantId: book, quantity: 1 },
      ],
      berlin,
    );
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    expect(order.body.data).toMatchObject({ pricesIncludeTax: true, subtotal: 44.9, taxTotal: 5.75, total: 44.9, taxBreakdown: data.totals.taxBreakdown });
    expect(order.body.data.lines.map((l: any) => [l.taxClass, l.taxRate, l.taxAmount, l.total])).toEqual([
      ['standard', 19, 4.77, 29.9],
      ['reduced', 7, 0.98, 15],
    ]);

    const csv = await fetchCsv(`/api/orders?format=csv&fields=id,pricesIncludeTax,taxTotal,total,lines(taxRate,taxAmount)&number=${order.body.data.number}`);
    expect(csv).toEqual(['id,pricesIncludeTax,taxTotal,total,lines.taxRate,lines.taxAmount', `${order.body.data.id},true,5.75,44.9,19; 7,4.77; 0.98`]);
  });

  it('adds tax on top for the same goods in dollars, which exclude it, at the rate of the address', async () => {
    const cart = await newCart('USD', newYork);
    await addLine(cart, shirt);
    const res = await addLine(cart, book);
    const data = res.body.data;
    expect(data.pricesIncludeTax).toBe(false);
    // 3250 × 8.875% = 288.44; 1630 × 8.875% = 144.66. New York has no reduced rate: the book pays the standard one.
    expect(data.lines.map((l: any) => [l.unitPrice, l.taxRate, l.taxAmount, l.total])).toEqual([
      [32.5, 8.875, 2.88, 35.38],
      [16.3, 8.875, 1.45, 17.75],
    ]);
    expect(data.totals).toMatchObject({ subtotal: 48.8, taxTotal: 4.33, total: 53.13 });
  });

  it('keeps a placed order as it was charged after the rate, the class and the price change', async () => {
    const placed = await placeOrder('EUR', [{ variantId: shirt, quantity: 2 }], berlin);
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    const before = placed.body.data;
    expect(before).toMatchObject({ total: 59.8, taxTotal: 9.55 }); // 5980 × 19 / 119 = 954.79

    const [product] = await db().select({ id: productVariants.productId }).from(productVariants).where(eq(productVariants.id, shirt));
    await db().update(taxRates).set({ rate: '21' }).where(eq(taxRates.country, 'DE'));
    await db().update(products).set({ taxClass: 'reduced' }).where(eq(products.id, product!.id));
    await db().update(productVariants).set({ price: 4000 }).where(eq(productVariants.id, shirt));
    try {
      const after = await api(`/api/orders/${before.id}`, { key });
      expect(after.body.data).toMatchObject({ total: 59.8, taxTotal: 9.55, pricesIncludeTax: true, taxBreakdown: before.taxBreakdown });
      expect(after.body.data.lines[0]).toMatchObject({ taxClass: 'standard', taxRate: 19, taxAmount: 9.55 });
      // A new cart prices by what is set now: €36.80 at the reduced class, now 21% (every DE rate moved).
      const cart = await newCart('EUR', berlin);
      const now = await addLine(cart, shirt);
      expect(now.body.data.lines[0]).toMatchObject({ unitPrice: 36.8, taxClass: 'reduced', taxRate: 21, taxAmount: 6.39 });
    } finally {
      await db().update(taxRates).set({ rate: '19' }).where(eq(taxRates.taxClass, 'standard'));
      await db().update(taxRates).set({ rate: '7' }).where(eq(taxRates.taxClass, 'reduced'));
      await db().update(products).set({ taxClass: 'standard' }).where(eq(products.id, product!.id));
      await db().update(productVariants).set({ price: 3250 }).where(eq(productVariants.id, shirt));
    }
  });

  it('taxes shipping by the same rule: inside the charge when prices include tax', async () => {
    await db().update(taxRates).set({ shippingTaxable: true }).where(eq(taxRates.name, 'MwSt'));
    await db()
      .update(shippingMethods)
      .set({ rate: { type: 'flat', amount: 500 } })
      .where(eq(shippingMethods.id, 'smeth_standard'));
    try {
      const placed = await placeOrder('EUR', [{ variantId: shirt, quantity: 1 }], berlin);
      expect(placed.status, JSON.stringify(placed.body)).toBe(201);
      // $5.00 of shipping is €4.60, holding 460 × 19 / 119 = 73.45 cents of VAT.
      const expected = { shippingTotal: 4.6, shippingTax: 0.73, taxTotal: 5.5, total: 34.5, taxBreakdown: [{ rate: 19, netAmount: 29, taxAmount: 5.5 }] };
      expect(placed.body.data).toMatchObject(expected);
      expect((await api(`/api/orders/${placed.body.data.id}`, { key })).body.data).toMatchObject(expected);
    } finally {
      await db().update(taxRates).set({ shippingTaxable: false }).where(eq(taxRates.name, 'MwSt'));
      await db()
        .update(shippingMethods)
        .set({ rate: { type: 'flat', amount: 0 } })
        .where(eq(shippingMethods.id, 'smeth_standard'));
    }
  });

  it('reports count the tax inside prices: in gross and tax, out of net and of product revenue', async () => {
    await db().insert(currencies).values({ code: 'GBP', name: 'Pound', symbol: '£', minorUnits: 2, exchangeRate: '1', pricesIncludeTax: true });
    await db()
      .insert(taxRates)
      .values({ id: `tax_${uid()}`, name: 'UK VAT', country: 'GB', rate: '20' });
    const london = { line1: '1 High St', city: 'London', postalCode: 'SW1A 1AA', country: 'GB' };
    const placed = await placeOrder('GBP', [{ variantId: shirt, quantity: 2 }], london);
    expect(placed.body.data).toMatchObject({ total: 65, taxTotal: 10.83 }); // 6500 / 6 = 1083.33
    const today = new Date().toISOString().slice(0, 10);
    const sales = (await api(`/api/reports/sales?from=${today}&to=${today}&currency=GBP`, { key })).body.data;
    expect(sales.totals).toMatchObject({ orders: 1, gross: 65, tax: 10.83, taxIncluded: 10.83, net: 54.17, sales: 65 });
    const top = (await api(`/api/reports/products?from=${today}&to=${today}&currency=GBP`, { key })).body.data;
    expect(top.products).toEqual([expect.objectContaining({ units: 2, revenue: 54.17 })]);
  });

  it('sells exactly the stock to 20 concurrent inclusive checkouts, each charged exactly', async () => {
    const scarce = await product(32.5, 'standard', 7);
    const results = await Promise.all(Array.from({ length: 20 }, () => placeOrder('EUR', [{ variantId: scarce, quantity: 1 }], berlin)));
    const placed = results.filter((r) => r.status === 201);
    expect(placed).toHaveLength(7);
    expect(results.filter((r) => r.status === 409)).toHaveLength(13);
    for (const r of placed) expect(r.body.data).toMatchObject({ total: 29.9, taxTotal: 4.77, lines: [{ taxRate: 19, taxAmount: 4.77 }] });
    const [left] = await db().select({ stock: productVariants.stock }).from(productVariants).where(eq(productVariants.id, scarce));
    expect(left!.stock).toBe(0);
  });
});
