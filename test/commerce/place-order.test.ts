import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { events, orderLines, orders, productVariants, promotions } from '../../src/db/schema';
import { couponPromotion } from './coupon-reference';
import { newId } from '../../src/lib/ids';
import { placeOrder } from '../../src/modules/orders/place-order';
import { adminKey, createProduct, db, uid } from '../helpers';

const order = (variantId: string, quantity = 1, extra: Partial<Parameters<typeof placeOrder>[1]> = {}) =>
  placeOrder(db(), { customerId: null, email: `guest-${uid()}@example.test`, lines: [{ variantId, quantity }], actor: 'system', ...extra });
const stockOf = async (id: string) => (await db().select().from(productVariants).where(eq(productVariants.id, id)))[0]!.stock;

describe('placing orders', () => {
  it('sells exactly the stock to 20 concurrent orders for 5 units, and 409s the rest', async () => {
    const product = await createProduct(await adminKey(), { price: 12.5, stock: 5 });
    const variantId = product.variants[0].id;
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => order(variantId)));
    const placed = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(placed).toHaveLength(5);
    expect(refused.every((r) => r.reason.code === 'CONFLICT' && /Not enough stock/.test(r.reason.message))).toBe(true);
    expect(await stockOf(variantId)).toBe(0);
    const sold = await db().select().from(orderLines).where(eq(orderLines.variantId, variantId));
    expect(sold).toHaveLength(5);
    const placedEvents = (await db().select().from(events).where(eq(events.type, 'order.placed'))).filter((e) =>
      placed.some((p) => (p as PromiseFulfilledResult<any>).value.order.id === e.data.orderId),
    );
    expect(placedEvents).toHaveLength(5);
  });

  it('leaves nothing behind when one line of an order runs short', async () => {
    const key = await adminKey();
    const plenty = await createProduct(key, { stock: 10 });
    const scarce = await createProduct(key, { stock: 1 });
    const email = `guest-${uid()}@example.test`;
    await expect(
      placeOrder(db(), {
        customerId: null,
        email,
        actor: 'system',
        lines: [
          { variantId: plenty.variants[0].id, quantity: 2 },
          { variantId: scarce.variants[0].id, quantity: 2 },
        ],
      }),
    ).rejects.toMatchObject({ code: 'CONFLICT', details: [{ field: 'lines.1.quantity', code: 'too_big', message: 'lines.1.quantity: only 1 in stock' }] });
    expect(await stockOf(plenty.variants[0].id)).toBe(10);
    expect(await db().select().from(orders).where(eq(orders.email, email))).toHaveLength(0);
  });

  it('uses a coupon at most its limit, whatever the concurrency', async () => {
    const product = await createProduct(await adminKey(), { price: 10, stock: 100 });
    const code = `ONCE${uid().toUpperCase()}`;
    await db()
      .insert(promotions)
      .values(couponPromotion({ id: newId('coup'), code, type: 'fixed', value: '100', usageLimit: 3 }));
    const results = await Promise.allSettled(Array.from({ length: 8 }, () => order(product.variants[0].id, 1, { couponCode: code })));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    expect((await db().select().from(promotions).where(eq(promotions.code, code)))[0]!.timesUsed).toBe(3);
    expect(await stockOf(product.variants[0].id)).toBe(97);
  });

  it('records totals, currency digits and the coupon on the order', async () => {
    const product = await createProduct(await adminKey(), { price: 19.99, stock: 5 });
    const code = `TEN${uid().toUpperCase()}`;
    await db()
      .insert(promotions)
      .values(couponPromotion({ id: newId('coup'), code, type: 'percentage', value: '10' }));
    const { order: placed, lines } = await order(product.variants[0].id, 2, { couponCode: code });
    expect(placed).toMatchObject({ status: 'pending', currency: 'USD', minorUnits: 2, subtotal: 3998, discountTotal: 400, total: 3598, couponCode: code });
    expect(lines[0]).toMatchObject({ quantity: 2, unitPrice: 1999, subtotal: 3998, discount: 400, total: 3598 });
  });
});
