import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { currencies, orders, payments, productSalesDays, productSalesMonths, salesDays, taxRates } from '../../src/db/schema';
import { ALL_ORDERS } from '../../src/modules/orders/orders.access';
import { cancelOrder } from '../../src/modules/orders/orders.service';
import { placeOrder } from '../../src/modules/orders/place-order';
import { createPayment } from '../../src/modules/payments/payments.service';
import { createRefund } from '../../src/modules/payments/refunds.service';
import { adminKey, createProduct, db, insertUser, uid } from '../helpers';

// The daily aggregates the reports read (src/db/schema/reports.ts) against a brute-force sum over
// orders, lines and refunds, after random placements, cancellations, payments and refunds.

/** A deterministic generator, so a failure can be replayed. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => (state = (state * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

type Row = Record<string, number | string>;
const nonZero = (rows: Row[]) => rows.filter((r) => Object.entries(r).some(([k, v]) => typeof v === 'number' && v !== 0 && k !== 'minorUnits'));
const byKey = (rows: Row[], key: (r: Row) => string) => Object.fromEntries(rows.map((r) => [key(r), r]));

async function bruteForce() {
  const d = db();
  const [days, units, refunds, products, months] = (await d.batch([
    d.all<Row>(sql`SELECT substr(created_at, 1, 10) AS day, currency, count(*) AS orders, sum(first_order) AS firstOrders,
      sum(CASE WHEN first_order THEN total ELSE 0 END) AS firstOrderSales, sum(subtotal) AS gross, sum(discount_total) AS discounts,
      sum(shipping_total) AS shipping, sum(tax_total) AS tax,
      sum(CASE WHEN prices_include_tax THEN tax_total - shipping_tax ELSE 0 END) AS lineTaxIncluded, sum(total) AS sales FROM orders WHERE status != 'cancelled' GROUP BY 1, 2`),
    d.all<Row>(
      sql`SELECT substr(o.created_at, 1, 10) AS day, o.currency, sum(l.quantity) AS units FROM order_lines l JOIN orders o ON o.id = l.order_id WHERE o.status != 'cancelled' GROUP BY 1, 2`,
    ),
    d.all<Row>(sql`SELECT substr(updated_at, 1, 10) AS day, currency, sum(amount) AS refunds FROM refunds WHERE status = 'completed' GROUP BY 1, 2`),
    d.all<Row>(sql`SELECT substr(o.created_at, 1, 10) AS day, o.currency, l.product_id AS productId, sum(l.quantity) AS units, sum(l.total - l.tax) AS revenue, count(*) AS lines
      FROM order_lines l JOIN orders o ON o.id = l.order_id WHERE o.status != 'cancelled' GROUP BY 1, 2, 3`),
    d.all<Row>(sql`SELECT substr(o.created_at, 1, 7) AS month, o.currency, l.product_id AS productId, sum(l.quantity) AS units, sum(l.total - l.tax) AS revenue, count(*) AS lines
      FROM order_lines l JOIN orders o ON o.id = l.order_id WHERE o.status != 'cancelled' GROUP BY 1, 2, 3`),
  ] as never)) as Row[][];
  const key = (r: Row) => `${r.currency}|${r.day}`;
  const expected: Record<string, Row> = {};
  const zero = { orders: 0, firstOrders: 0, firstOrderSales: 0, units: 0, gross: 0, discounts: 0, shipping: 0, tax: 0, lineTaxIncluded: 0, sales: 0, refunds: 0 };
  for (const r of [...days!, ...units!, ...refunds!]) expected[key(r)] = { ...zero, ...expected[key(r)], ...r };
  return { days: expected, products: byKey(products!, (r) => `${r.currency}|${r.day}|${r.productId}`), months: byKey(months!, (r) => `${r.currency}|${r.month}|${r.productId}`) };
}

async function kept() {
  const days = nonZero((await db().select().from(salesDays)) as unknown as Row[]).map(({ minorUnits: _, ...r }) => r);
  const products = nonZero((await db().select().from(productSalesDays)) as unknown as Row[]).map(({ name: _, ...r }) => r);
  const months = nonZero((await db().select().from(productSalesMonths)) as unknown as Row[]).map(({ name: _, ...r }) => r);
  return {
    days: byKey(days, (r) => `${r.currency}|${r.day}`),
    products: byKey(products, (r) => `${r.currency}|${r.day}|${r.productId}`),
    months: byKey(months, (r) => `${r.currency}|${r.month}|${r.productId}`),
  };
}

describe('sales aggregates', () => {
  it('equal a brute-force sum over orders and refunds after random writes', { timeout: 60_000 }, async () => {
    const next = random(23);
    const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)]!;
    // Yen prices include tax and dollar prices do not: both kinds of order are summed.
    await db().insert(currencies).values({ code: 'JPY', name: 'Yen', symbol: '¥', minorUnits: 0, exchangeRate: '150.5', pricesIncludeTax: true }).onConflictDoNothing();
    await db()
      .insert(taxRates)
      .values({ id: `tax_${uid()}`, name: 'JP consumption tax', country: 'JP', rate: '10', shippingTaxable: true });
    const key = await adminKey();
    const variants: string[] = [];
    for (let i = 0; i < 4; i++) variants.push((await createProduct(key, { price: 5 + i * 7.25, stock: 10_000 })).variants[0].id);
    const customers = [(await insertUser()).user.id, (await insertUser()).user.id, (await insertUser()).user.id];
    const guests = [`g1-${uid()}@example.test`, `g2-${uid()}@example.test`];
    const placed: string[] = [];
    for (let i = 0; i < 60; i++) {
      const customerId = next() < 0.6 ? pick(customers) : null;
      const email = customerId ? `c-${customerId}@example.test` : pick(guests);
      const lines = [...new Set(Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(variants)))].map((variantId) => ({
        variantId,
        quantity: 1 + Math.floor(next() * 4),
      }));
      const when = new Date(Date.UTC(2026, 0, 1 + Math.floor(next() * 90), Math.floor(next() * 24)));
      const shippingAddress = next() < 0.7 ? { line1: '1-1 Chiyoda', city: 'Tokyo', postalCode: '100-0001', country: 'JP' } : undefined;
      const { order } = await placeOrder(db(), { customerId, email, lines, currency: next() < 0.25 ? 'JPY' : 'USD', shippingAddress, actor: 'system' }, when);
      placed.push(order.id);
      const roll = next();
      if (roll < 0.2) await cancelOrder(db(), order.id, ALL_ORDERS, 'test', 'system');
      else if (roll < 0.6) {
        const { payment } = await createPayment(db(), {}, order, { provider: 'manual' }, { actor: 'system' });
        if (next() < 0.5) {
          const row = (await db().select().from(payments).where(eq(payments.id, payment.id)))[0]!;
          const stored = (await db().select().from(orders).where(eq(orders.id, order.id)))[0]!;
          await createRefund(db(), {}, row, stored, { amount: stored.currency === 'JPY' ? 100 : 1.5 }, { actor: 'system' });
        }
      }
    }
    const [expected, actual] = [await bruteForce(), await kept()];
    expect(Object.keys(expected.days).length).toBeGreaterThan(20);
    expect(actual.days).toEqual(expected.days);
    expect(actual.products).toEqual(expected.products);
    expect(actual.months).toEqual(expected.months);
    expect(Object.keys(actual.months).length).toBeGreaterThan(8);
    // Some of each kind of write happened.
    const counts = await db().all<{ cancelled: number; refunded: number }>(
      sql`SELECT (SELECT count(*) FROM orders WHERE status = 'cancelled') AS cancelled, (SELECT count(*) FROM refunds WHERE status = 'completed') AS refunded`,
    );
    expect(counts[0]!.cancelled).toBeGreaterThan(3);
    expect(counts[0]!.refunded).toBeGreaterThan(3);
  });

  it("flags a customer's first order: by account, or by email for a guest, cancelled orders not counting", async () => {
    const variantId = (await createProduct(await adminKey(), { price: 3, stock: 100 })).variants[0].id;
    const order = (customerId: string | null, email: string) => placeOrder(db(), { customerId, email, lines: [{ variantId, quantity: 1 }], actor: 'system' }).then((p) => p.order);
    const { user } = await insertUser();
    const guest = `first-${uid()}@example.test`;
    expect((await order(user.id, user.email)).firstOrder).toBe(true);
    expect((await order(user.id, user.email)).firstOrder).toBe(false);
    expect((await order(null, guest)).firstOrder).toBe(true);
    expect((await order(null, guest)).firstOrder).toBe(false);
    // A guest order with a customer's email is the guest's, not the account's.
    expect((await order(null, user.email)).firstOrder).toBe(true);
    const { user: other } = await insertUser();
    const cancelled = await order(other.id, other.email);
    await cancelOrder(db(), cancelled.id, ALL_ORDERS, 'test', 'system');
    expect((await order(other.id, other.email)).firstOrder).toBe(true);
    expect((await db().select({ firstOrder: orders.firstOrder }).from(orders).where(eq(orders.id, cancelled.id)))[0]!.firstOrder).toBe(true);
  });
});
