import { env } from 'cloudflare:workers';
import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { orders, products, productVariants, quoteVersion, shippingMethods, writeGuards } from '../../src/db/schema';
import { adminKey, createProduct, db, uid } from '../helpers';
import { countedOrder } from './order-fixtures';

/**
 * An order is priced from the quote inputs this isolate kept when it has them all
 * (src/modules/checkout/quote-inputs.ts) and written in one D1 round trip, guarded by quote_version:
 * whatever changed since (a price, a product taken off sale, the settings) is found by the guard,
 * and the order is priced again from a fresh read. Stock changes do not move the version.
 */

const version = async () => (await db().select().from(quoteVersion))[0]!.version;
const ordersFor = async (email: string) => (await db().select({ n: count() }).from(orders).where(eq(orders.email, email)))[0]!.n;

describe('orders priced from kept quote inputs', () => {
  it('takes one round trip once the inputs are kept, and stock changes (its own orders) do not move the version', async () => {
    const product = await createProduct(await adminKey(), { price: 8, stock: 50 });
    const variantId = product.variants[0].id;
    const o = countedOrder();
    await o.place(variantId);
    const before = await version();
    o.reset();
    const second = await o.place(variantId, 2);
    expect(o.calls()).toBe(1);
    expect(second.order.total).toBe(1600);
    expect(await version()).toBe(before);
    const left = (await db().select({ stock: productVariants.stock }).from(productVariants).where(eq(productVariants.id, variantId)))[0]!.stock;
    expect(left).toBe(47);
  });

  it('places an order at a price changed since the inputs were kept (the guard aborts the stale write, nothing of it stays)', async () => {
    const product = await createProduct(await adminKey(), { price: 10, stock: 50 });
    const variantId = product.variants[0].id;
    const o = countedOrder();
    await o.place(variantId);
    const before = await version();
    // Another isolate (here: the database directly) changes the price; this one still keeps 10.00.
    await db().update(productVariants).set({ price: 1250 }).where(eq(productVariants.id, variantId));
    expect(await version()).not.toBe(before);
    o.reset();
    const email = `repriced-${uid()}@example.test`;
    const placed = await o.place(variantId, 2, email);
    expect(placed.order.total).toBe(2500);
    expect(placed.lines[0]).toMatchObject({ unitPrice: 1250, quantity: 2 });
    // The kept write (aborted), the fresh read, the write.
    expect(o.calls()).toBe(3);
    expect(await ordersFor(email)).toBe(1);
    expect(await db().select().from(writeGuards)).toEqual([]);
  });

  it('refuses a product taken off sale since the inputs were kept, and sells it again once it is back', async () => {
    const product = await createProduct(await adminKey(), { price: 5, stock: 50 });
    const variantId = product.variants[0].id;
    const o = countedOrder();
    await o.place(variantId);
    await db().update(products).set({ status: 'draft' }).where(eq(products.id, product.id));
    const email = `off-sale-${uid()}@example.test`;
    await expect(o.place(variantId, 1, email)).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ field: 'lines.0.variantId', message: expect.stringMatching(/not for sale/) }],
    });
    expect(await ordersFor(email)).toBe(0);
    // The refusal came from fresh inputs, which are kept now; once the product is back they are stale.
    await db().update(products).set({ status: 'active' }).where(eq(products.id, product.id));
    const back = await o.place(variantId);
    expect(back.order.status).toBe('pending');
  });

  it('applies a shipping rate changed since the inputs were kept (not the old rate)', async () => {
    const product = await createProduct(await adminKey(), { price: 3, stock: 50 });
    const variantId = product.variants[0].id;
    const [standard] = await db().select().from(shippingMethods).where(eq(shippingMethods.id, 'smeth_standard'));
    const o = countedOrder();
    try {
      await o.place(variantId);
      const before = await version();
      await db()
        .update(shippingMethods)
        .set({ rate: { type: 'flat', amount: 499 }, freeAbove: null })
        .where(eq(shippingMethods.id, 'smeth_standard'));
      expect(await version()).not.toBe(before);
      o.reset();
      const placed = await o.place(variantId);
      expect(placed.order).toMatchObject({ subtotal: 300, shippingTotal: 499, total: 799, shippingMethodId: 'smeth_standard' });
      expect(o.calls()).toBe(3);
    } finally {
      await db().update(shippingMethods).set({ rate: standard!.rate, freeAbove: standard!.freeAbove }).where(eq(shippingMethods.id, 'smeth_standard'));
    }
  });

  it('keeps write_guards empty: a guard that holds inserts no row, one that fails aborts the batch', async () => {
    const current = await version();
    await db().insert(writeGuards).values({ name: 'stale_quote', ok: 1 });
    expect(await db().select().from(writeGuards)).toEqual([]);
    const email = `guarded-${uid()}@example.test`;
    await expect(
      env.DB.batch([
        env.DB.prepare("INSERT INTO write_guards (name, ok) SELECT 'stale_quote', (SELECT version = ? FROM quote_version WHERE id = 1)").bind(current + 1),
        env.DB.prepare(
          "INSERT INTO orders (id, email, status, currency, minor_units, subtotal, discount_total, shipping_total, tax_total, total, created_at, updated_at) VALUES (?, ?, 'pending', 'USD', 2, 0, 0, 0, 0, 0, '', '')",
        ).bind(`ord_${uid()}`, email),
      ]),
    ).rejects.toThrow(/guard:stale_quote/);
    expect(await ordersFor(email)).toBe(0);
  });
});
