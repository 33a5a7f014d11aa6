import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { shippingMethods, shippingZones, storeSettings, promotions } from '../../src/db/schema';
import { couponPromotion } from './coupon-reference';
import { newId } from '../../src/lib/ids';
import { quote } from '../../src/modules/checkout/quote';
import { adminKey, api, createProduct, db, expectError, uid } from '../helpers';

/**
 * Migration 0050 turns a store's flat shipping rate and free-shipping threshold into the "Standard"
 * method of a rest-of-world zone, so every cart prices exactly as before; the settings fields stay,
 * deprecated, as aliases of that method.
 */

let key: string;
beforeAll(async () => {
  key = await adminKey();
});

/** The statements of migration 0050 that make the zone and its method from the settings row. */
function migrationInserts(): string[] {
  const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith('0050_'))!;
  return migration.queries.filter((q) => /INSERT INTO `shipping_(zones|methods)`/.test(q));
}

/** Shipping as the store priced it before zones (the old src/lib/pricing.ts): flat, free from the threshold on the discounted subtotal. */
const shippingBefore = (discountedSubtotal: number) => (discountedSubtotal >= 7500 ? 0 : 495);

describe('migration 0050', () => {
  it("prices the demo store's carts exactly as before: 4.95 flat, free from 75.00 after discounts", async () => {
    // The demo data's shipping settings as the seed wrote them before zones, then the migration run on them.
    await db().delete(shippingZones).where(eq(shippingZones.id, 'szone_everywhere'));
    expect(await db().select().from(shippingMethods).where(eq(shippingMethods.id, 'smeth_standard'))).toEqual([]);
    await db().update(storeSettings).set({ shippingFlatRate: 495, freeShippingThreshold: 7500 });
    expect(migrationInserts()).toHaveLength(2);
    for (const statement of migrationInserts()) await env.DB.prepare(statement).run();

    const shirt = (await createProduct(key, { price: 19.99, stock: 100 })).variants[0].id;
    const boots = (await createProduct(key, { price: 40, stock: 100 })).variants[0].id;
    const code = `MIG${uid().toUpperCase()}`;
    await db()
      .insert(promotions)
      .values(couponPromotion({ id: newId('coup'), code, type: 'percentage', value: '10' }));
    const carts = [
      { lines: [{ variantId: shirt, quantity: 1 }] },
      { lines: [{ variantId: boots, quantity: 2 }] },
      { lines: [{ variantId: boots, quantity: 2 }], couponCode: code },
      {
        lines: [
          { variantId: shirt, quantity: 3 },
          { variantId: boots, quantity: 1 },
        ],
        shippingAddress: { line1: 'x', city: 'Tokyo', country: 'JP' },
      },
      { lines: [{ variantId: shirt, quantity: 1 }], currency: 'USD', shippingAddress: { line1: 'x', city: 'Berlin', postalCode: '10115', country: 'DE' } },
    ];
    for (const cart of carts) {
      const q = await quote(db(), cart);
      const goods = q.totals.subtotal - q.totals.discountTotal;
      expect(q.totals.shippingTotal).toBe(shippingBefore(goods));
      expect(q.totals.total).toBe(goods + shippingBefore(goods) + q.totals.taxTotal);
      expect(q.shipping.chosen?.method).toMatchObject({ id: 'smeth_standard', name: 'Standard', zoneId: 'szone_everywhere' });
    }
    expect((await quote(db(), carts[1]!)).totals.shippingTotal).toBe(0);
    expect((await quote(db(), carts[2]!)).totals.shippingTotal).toBe(495);
  });
});

describe('deprecated settings fields shippingFlatRate and freeShippingThreshold', () => {
  const settings = (json?: unknown) => api('/api/settings', json === undefined ? { key } : { method: 'PATCH', key, json });

  it("read the Standard method's amount and freeAbove", async () => {
    await db()
      .update(shippingMethods)
      .set({ rate: { type: 'flat', amount: 495 }, freeAbove: 7500 })
      .where(eq(shippingMethods.id, 'smeth_standard'));
    expect((await settings()).body.data).toMatchObject({ shippingFlatRate: 4.95, freeShippingThreshold: 75 });
  });

  it('write it, answered with Deprecation, Sunset and Link headers; a PATCH without them has none', async () => {
    const res = await settings({ shippingFlatRate: 6, freeShippingThreshold: null });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ shippingFlatRate: 6, freeShippingThreshold: null });
    expect(res.headers.get('Deprecation')).toMatch(/^@\d+$/);
    expect(new Date(res.headers.get('Sunset')!).getTime()).toBeGreaterThan(Date.now());
    expect(res.headers.get('Link')).toContain('/api/settings/shipping-zones');
    const [method] = await db().select().from(shippingMethods).where(eq(shippingMethods.id, 'smeth_standard'));
    expect(method).toMatchObject({ rate: { type: 'flat', amount: 600 }, freeAbove: null });
    const shirt = (await createProduct(key, { price: 10, stock: 5 })).variants[0].id;
    expect((await quote(db(), { lines: [{ variantId: shirt, quantity: 1 }] })).totals.shippingTotal).toBe(600);
    const plain = await settings({ name: 'Plain' });
    expect(plain.headers.get('Deprecation')).toBeNull();
  });

  it('read null once the method is no longer flat or is deleted, and writing them is then 409 pointing to shipping zones', async () => {
    await db()
      .update(shippingMethods)
      .set({ rate: { type: 'weight', bands: [{ upTo: null, amount: 100 }] } })
      .where(eq(shippingMethods.id, 'smeth_standard'));
    expect((await settings()).body.data.shippingFlatRate).toBeNull();
    expectError(await settings({ shippingFlatRate: 5 }), 409, 'CONFLICT');
    expect((await settings({ freeShippingThreshold: 80 })).body.data.freeShippingThreshold).toBe(80);

    expect((await api('/api/settings/shipping-zones/szone_everywhere/methods/smeth_standard', { method: 'DELETE', key })).status).toBe(204);
    expect((await settings()).body.data).toMatchObject({ shippingFlatRate: null, freeShippingThreshold: null });
    const gone = await settings({ shippingFlatRate: 5, name: 'Not applied' });
    expectError(gone, 409, 'CONFLICT');
    expect(gone.body.error.message).toContain('/api/settings/shipping-zones');
    expect(gone.body.error.details[0].field).toBe('shippingFlatRate');
    expect((await settings()).body.data.name).not.toBe('Not applied');
    expect((await settings({ name: 'Still works' })).status).toBe(200);
  });
});
