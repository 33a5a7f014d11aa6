import { env } from 'cloudflare:workers';
import { eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CouponRow, carts, couponUsages, coupons, currencies, orders, promotionUsages, promotions } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { quote } from '../../src/modules/checkout/quote';
import { placeOrder } from '../../src/modules/orders/place-order';
import { adminKey, api, createCategory, createProduct, db, expectError, uid } from '../helpers';
import { couponDiscounts, promotionRowOfCoupon } from './coupon-reference';

/**
 * Migration 0070 makes every coupon a promotions row (same id, `is_coupon`), with its usages, the
 * carts that hold it and the code rule (a promotion of a coupon's code is renamed); the coupon then
 * prices carts exactly as before and keeps its answers, through /api/coupons and at checkout.
 */

let key: string;
beforeAll(async () => {
  key = await adminKey();
});

/** Migration 0070's statements but the column it adds (present already: the test database is migrated). */
function migrationStatements(): string[] {
  const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith('0070_'))!;
  return migration.queries.filter((q) => !/^\s*(--[^\n]*\n\s*)*ALTER TABLE/.test(q));
}

const at = '2026-03-01T10:00:00.000Z';
const coupon = (values: Partial<CouponRow> & Pick<CouponRow, 'code' | 'type' | 'value'>): CouponRow => ({
  id: newId('coup'),
  description: null,
  minSubtotal: null,
  currencyAmounts: {},
  startsAt: null,
  endsAt: null,
  usageLimit: null,
  usageLimitPerCustomer: null,
  timesUsed: 0,
  productIds: [],
  categoryIds: [],
  active: true,
  createdAt: at,
  updatedAt: at,
  ...values,
});

describe('migration 0070: coupons become promotions rows', () => {
  it('moves coupons, their usages and carts, renames a colliding promotion code, and empties the old tables', async () => {
    await db().insert(currencies).values({ code: 'EUR', name: 'Euro', symbol: '€', minorUnits: 2, exchangeRate: '0.9' }).onConflictDoNothing();
    const category = await createCategory(key);
    const shirt = await createProduct(key, { price: 20, stock: 100, categoryIds: [category.id] });
    const mug = await createProduct(key, { price: 8, stock: 100 });
    const tag = uid().toUpperCase();
    const percent = coupon({
      code: `P${tag}`,
      description: 'ten off shirts',
      type: 'percentage',
      value: '12.5',
      categoryIds: [category.id],
      productIds: [mug.id],
      minSubtotal: 1000,
      usageLimit: 10,
      usageLimitPerCustomer: 1,
      timesUsed: 2,
      startsAt: '2026-01-01T00:00:00.000Z',
      endsAt: '2099-01-01T00:00:00.000Z',
    });
    const fixed = coupon({ code: `F${tag}`, type: 'fixed', value: '500', currencyAmounts: { EUR: { value: 450, minSubtotal: 2000 } } });
    const off = coupon({ code: `O${tag}`, type: 'fixed', value: '100', active: false });
    await db().insert(coupons).values([percent, fixed, off]);
    // A promotion of the percentage coupon's code: the coupon won at checkout until now.
    const rival = newId('promo');
    await db().insert(promotions).values({ id: rival, name: 'Rival', code: percent.code, type: 'percentage', value: '50' });
    // One customer used the percentage coupon twice, though its per-customer limit is 1 now: the copy must not be refused.
    const usages = ['a', 'b'].map((n) => ({ id: newId('cuse'), couponId: percent.id, orderId: `ord_${n}${tag}`, customerKey: `user_${tag}`, createdAt: at }));
    await db().update(coupons).set({ usageLimitPerCustomer: null }).where(eq(coupons.id, percent.id));
    await db().insert(couponUsages).values(usages);
    await db().update(coupons).set({ usageLimitPerCustomer: 1 }).where(eq(coupons.id, percent.id));
    const cart = newId('cart');
    await db().insert(carts).values({ id: cart, currency: 'USD', couponId: fixed.id, createdAt: at, updatedAt: at });
    const placed = await placeOrder(db(), { customerId: null, email: `m-${tag}@example.test`, lines: [{ variantId: mug.variants[0].id, quantity: 1 }], actor: 'system' });
    await db().update(orders).set({ couponId: percent.id, couponCode: percent.code }).where(eq(orders.id, placed.order.id));

    for (const statement of migrationStatements()) await env.DB.prepare(statement).run();

    const moved = await db()
      .select()
      .from(promotions)
      .where(inArray(promotions.id, [percent.id, fixed.id, off.id]));
    expect(moved.sort((a, b) => a.code!.localeCompare(b.code!))).toEqual([fixed, off, percent].map(promotionRowOfCoupon));
    expect((await db().select().from(promotions).where(eq(promotions.id, rival)))[0]).toMatchObject({ code: `${percent.code}-PROMOTION`, isCoupon: false });
    expect(await db().select().from(promotionUsages).where(eq(promotionUsages.promotionId, percent.id))).toEqual(
      usages.map(({ couponId, ...u }) => ({ ...u, promotionId: couponId })),
    );
    expect((await db().select().from(carts).where(eq(carts.id, cart)))[0]).toMatchObject({ promotionId: fixed.id, couponId: null });
    expect((await db().select().from(orders).where(eq(orders.id, placed.order.id)))[0]).toMatchObject({ couponId: null, couponCode: percent.code });
    expect(await db().select().from(coupons)).toEqual([]);
    expect(await db().select().from(couponUsages)).toEqual([]);

    // /api/coupons shows them as coupons, field for field.
    const shown = (await api(`/api/coupons/${percent.id}`, { key })).body.data;
    expect(shown).toMatchObject({
      id: percent.id,
      code: percent.code,
      description: 'ten off shirts',
      type: 'percentage',
      value: 12.5,
      minSubtotal: 10,
      usageLimit: 10,
      usageLimitPerCustomer: 1,
      timesUsed: 2,
      productIds: [mug.id],
      categoryIds: [category.id],
      active: true,
      status: 'active',
      createdAt: at,
    });
    expect((await api(`/api/coupons/${fixed.code}`, { key })).body.data.currencyAmounts).toEqual([{ currency: 'EUR', value: 4.5, minSubtotal: 20 }]);
    expectError(await api(`/api/coupons/${rival}`, { key }), 404, 'NOT_FOUND');

    // It prices a cart exactly as the coupon did (pricing.ts's arithmetic, kept in coupon-reference.ts).
    const lines = [
      { variantId: shirt.variants[0].id, quantity: 3, key: 'a' },
      { variantId: mug.variants[0].id, quantity: 1, key: 'b' },
    ];
    const q = await quote(db(), { lines, couponCode: percent.code.toLowerCase(), customerKey: 'user_someone_else' });
    const reference = couponDiscounts(
      percent,
      [
        { productId: shirt.id, categoryIds: [category.id] },
        { productId: mug.id, categoryIds: [] },
      ],
      [6000, 800],
      { defaultMinorUnits: 2, currency: q.currency },
    );
    expect(q.lines.map((l) => l.discount)).toEqual(reference);
    expect(q.promotions).toEqual([{ promotionId: percent.id, name: percent.code, code: percent.code, amount: 850, shippingAmount: 0 }]);

    // And keeps a coupon's answers: 409 CONFLICT in a coupon's words.
    const refusal = async (code: string, request: Partial<Parameters<typeof quote>[1]> = {}) => {
      const error = await quote(db(), { lines, couponCode: code, ...request }).catch((e: unknown) => e as { code: string; message: string });
      return { code: (error as { code: string }).code, message: (error as { message: string }).message };
    };
    expect(await refusal(off.code)).toEqual({ code: 'CONFLICT', message: `Coupon '${off.code}' is not active` });
    expect(await refusal(percent.code, { customerKey: `user_${tag}` })).toEqual({
      code: 'CONFLICT',
      message: `Coupon '${percent.code}' has already been used 2 time(s) by this customer, the most allowed`,
    });
    expect(await refusal(percent.code, { lines: [{ variantId: mug.variants[0].id, quantity: 1 }] })).toEqual({
      code: 'CONFLICT',
      message: `Coupon '${percent.code}' needs a subtotal of at least 10 ${q.currency.code}`,
    });
    // The renamed promotion is a promotion code still (its own answers).
    expect((await quote(db(), { lines, couponCode: `${percent.code}-PROMOTION` })).promotions.map((p) => p.promotionId)).toEqual([rival]);

    // /api/promotions lists coupons (isCoupon) and leaves their changes to /api/coupons.
    const listed = await api(`/api/promotions?q=${fixed.code}`, { key });
    expect(listed.body.data).toEqual([expect.objectContaining({ id: fixed.id, code: fixed.code, isCoupon: true, target: 'items', combinesWithPromotions: true })]);
    for (const res of [
      await api(`/api/promotions/${fixed.id}`, { method: 'PATCH', key, json: { priority: 5 } }),
      await api(`/api/promotions/${fixed.code}`, { method: 'DELETE', key }),
    ]) {
      expectError(res, 409, 'CONFLICT');
      expect(res.body.error.message).toContain(`/api/coupons/${fixed.id}`);
    }
    expect((await db().select().from(promotions).where(eq(promotions.id, fixed.id)))[0]).toMatchObject({ priority: 0 });
  });

  it("makes codes unique across coupons and promotions: either API refuses the other's code with 409", async () => {
    const tag = uid().toUpperCase();
    const made = await api('/api/coupons', { method: 'POST', key, json: { code: `U${tag}`, type: 'percentage', value: 5 } });
    expect(made.status).toBe(201);
    expectError(await api('/api/promotions', { method: 'POST', key, json: { name: 'Same', code: `u${tag}`, type: 'percentage', value: 5 } }), 409, 'CONFLICT');
    const promo = await api('/api/promotions', { method: 'POST', key, json: { name: 'Other', code: `V${tag}`, type: 'percentage', value: 5 } });
    expect(promo.status).toBe(201);
    expectError(await api('/api/coupons', { method: 'POST', key, json: { code: `V${tag}`, type: 'fixed', value: 1 } }), 409, 'CONFLICT');
    expectError(await api(`/api/coupons/${made.body.data.id}`, { method: 'PATCH', key, json: { code: `V${tag}` } }), 409, 'CONFLICT');
    // A promotion is no coupon: /api/coupons does not find it.
    expectError(await api(`/api/coupons/${promo.body.data.id}`, { key }), 404, 'NOT_FOUND');
  });
});

describe('a coupon as a promotions row', () => {
  it("is named by its code on the lines it discounts, also after the code changes; a cancelled order's coupon still cannot be deleted", async () => {
    const variantId = (await createProduct(key, { price: 30, stock: 10 })).variants[0].id;
    const made = (await api('/api/coupons', { method: 'POST', key, json: { code: `N${uid()}`, type: 'percentage', value: 10 } })).body.data;
    const renamed = `R${uid()}`.toUpperCase();
    expect((await api(`/api/coupons/${made.id}`, { method: 'PATCH', key, json: { code: renamed } })).status).toBe(200);
    expect((await api(`/api/promotions/${made.id}`, { key })).body.data).toMatchObject({ name: renamed, code: renamed, isCoupon: true });
    const order = await api('/api/orders', { method: 'POST', key, json: { email: `n-${uid()}@example.test`, lines: [{ variantId, quantity: 1 }], couponCode: renamed } });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    expect(order.body.data.couponCode).toBe(renamed);
    expect(order.body.data.lines[0].promotions).toEqual([{ promotionId: made.id, name: renamed, amount: 3 }]);
    expect((await api(`/api/orders/${order.body.data.id}/cancel`, { method: 'POST', key })).status).toBe(200);
    // The use is given back (timesUsed 0, no usage row), yet an order applied it: deactivate instead.
    expect((await api(`/api/coupons/${made.id}`, { key })).body.data.timesUsed).toBe(0);
    const refused = await api(`/api/coupons/${made.id}`, { method: 'DELETE', key });
    expectError(refused, 409, 'CONFLICT');
    expect(refused.body.error.message).toContain('deactivate');
  });
});
