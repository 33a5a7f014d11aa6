import { beforeAll, describe, expect, it } from 'vitest';
import { currencies } from '../../src/db/schema';
import type { Principal } from '../../src/lib/access';
import { placeOrder } from '../../src/modules/orders/place-order';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service';
import { createRole } from '../../src/modules/roles/roles.service';
import { adminKey, api, createProduct, db, expectError, uid } from '../helpers';

// GET /api/reports/promotions against a brute-force sum over the orders' own `promotions`, read
// through the API: automatic, free-shipping and code promotions and a coupon, in two currencies, with
// a cancelled order and one placed before the range.

const ROOT: Principal = { kind: 'user', id: 'test-root', role: 'admin', permissions: ['*'], vendorId: null };
const VIENNA = { line1: 'Ring 1', city: 'Wien', country: 'AT' };
const stacks = { combinesWithPromotions: true, combinesWithCodes: true };

async function keyWith(permissions: string[]) {
  const role = await createRole(db(), ROOT, { name: `Role ${uid()}`, permissions });
  return (await createApiKey(db(), { name: 'reports', role: role.id })).key;
}

type Applied = { promotionId: string; name: string; code: string | null; amount: number; shippingAmount: number };
type Order = { id: string; status: string; currency: string; total: number; createdAt: string; promotions: Applied[] };

const minor = (major: number) => Math.round(major * 100); // USD and EUR: 2 digits

/** The report's rows as summed by hand from the orders (read through the API): the window's, in `currency`, not cancelled. */
function bruteForce(orders: Order[], currency: string, from: string, to: string) {
  const rows = new Map<string, { latest: string; name: string; code: string | null; orders: number; discount: number; shipping: number; sales: number }>();
  for (const order of orders) {
    const day = order.createdAt.slice(0, 10);
    if (order.status === 'cancelled' || order.currency !== currency || day < from || day > to) continue;
    for (const p of order.promotions) {
      const row = rows.get(p.promotionId) ?? { latest: '', name: '', code: null, orders: 0, discount: 0, shipping: 0, sales: 0 };
      if (order.createdAt > row.latest) Object.assign(row, { latest: order.createdAt, name: p.name, code: p.code });
      row.orders += 1;
      row.discount += minor(p.amount);
      row.shipping += minor(p.shippingAmount);
      row.sales += minor(order.total);
      rows.set(p.promotionId, row);
    }
  }
  return [...rows]
    .map(([promotionId, r]) => ({
      promotionId,
      name: r.name,
      code: r.code,
      orders: r.orders,
      discountTotal: r.discount / 100,
      shippingDiscount: r.shipping / 100,
      sales: r.sales / 100,
    }))
    .sort((a, b) => b.discountTotal - a.discountTotal || (a.promotionId < b.promotionId ? -1 : 1));
}

let key: string;
let placed: Order[];
let ids: { sale: string; freeShipping: string; spring: string; coupon: string; couponCode: string; springCode: string };
let window: { from: string; to: string };

beforeAll(async () => {
  key = await adminKey();
  await db().insert(currencies).values({ code: 'EUR', name: 'Euro', symbol: '€', minorUnits: 2, exchangeRate: '0.92' }).onConflictDoNothing();
  const zone = (await api('/api/settings/shipping-zones', { method: 'POST', key, json: { name: `Austria ${uid()}`, countries: ['AT'] } })).body.data;
  const method = await api(`/api/settings/shipping-zones/${zone.id}/methods`, { method: 'POST', key, json: { name: 'Post', rate: { type: 'flat', amount: 4.95 } } });
  expect(method.status, JSON.stringify(method.body)).toBe(201);
  const lamp = await createProduct(key, { price: 20, stock: 1000 });
  const chair = await createProduct(key, { price: 35, stock: 1000 });
  const promotion = async (json: Record<string, unknown>) => {
    const res = await api('/api/promotions', { method: 'POST', key, json: { ...stacks, ...json } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.id as string;
  };
  const springCode = `SPRING-${uid()}`.toUpperCase();
  const couponCode = `COUPON-${uid()}`.toUpperCase();
  const coupon = await api('/api/coupons', { method: 'POST', key, json: { code: couponCode, type: 'percentage', value: 5 } });
  expect(coupon.status, JSON.stringify(coupon.body)).toBe(201);
  ids = {
    sale: await promotion({ name: 'Lamp sale', type: 'percentage', value: 10, target: 'items', include: { productIds: [lamp.id] } }),
    freeShipping: await promotion({ name: 'Free shipping', type: 'free_shipping' }),
    spring: await promotion({ name: 'Spring', code: springCode, type: 'fixed', value: 5 }),
    coupon: coupon.body.data.id,
    couponCode,
    springCode,
  };

  const lines = (l: number, c: number) => [...(l ? [{ variantId: lamp.variants[0].id, quantity: l }] : []), ...(c ? [{ variantId: chair.variants[0].id, quantity: c }] : [])];
  const order = async (json: Record<string, unknown>) => {
    const res = await api('/api/orders', { method: 'POST', key, json: { email: `promo-${uid()}@example.test`, shippingAddress: VIENNA, ...json } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.id as string;
  };
  const orderIds = [
    await order({ lines: lines(2, 0) }), // sale and free shipping
    await order({ lines: lines(1, 1), couponCode: springCode }), // sale, free shipping and the code
    await order({ lines: lines(0, 2), couponCode }), // free shipping and the coupon
    await order({ lines: lines(1, 0), couponCode, currency: 'EUR' }), // all but the code, in euros
  ];
  // The sale renamed: its later orders carry the new name, which the report shows.
  expect((await api(`/api/promotions/${ids.sale}`, { method: 'PATCH', key, json: { name: 'Lamp sale, renamed' } })).status).toBe(200);
  orderIds.push(await order({ lines: lines(3, 0) }));
  const cancelled = await order({ lines: lines(4, 1), couponCode: springCode });
  expect((await api(`/api/orders/${cancelled}/cancel`, { method: 'POST', key, json: {} })).status).toBe(200);
  orderIds.push(cancelled);
  // One placed on a day before the range.
  const before = await placeOrder(
    db(),
    { customerId: null, email: `old-${uid()}@example.test`, lines: lines(5, 0), shippingAddress: VIENNA, actor: 'system' },
    new Date('2024-02-10T12:00:00Z'),
  );
  orderIds.push(before.order.id);

  placed = [];
  for (const id of orderIds) {
    const res = await api(`/api/orders/${id}`, { key });
    expect(res.status).toBe(200);
    placed.push(res.body.data);
  }
  const days = placed
    .filter((o) => !o.createdAt.startsWith('2024-'))
    .map((o) => o.createdAt.slice(0, 10))
    .sort();
  window = { from: days[0]!, to: days.at(-1)! };
});

const report = async (query: string, as = key) => {
  const res = await api(`/api/reports/promotions?${query}`, { key: as });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};

describe('promotion report', () => {
  it("sums each promotion's and coupon's discounts, shipping part and sales as the orders kept them", async () => {
    // The fixture did what it means to: every kind applied, shipping taken off, the sale renamed.
    const applied = new Set(placed.flatMap((o) => o.promotions.map((p) => p.promotionId)));
    expect([ids.sale, ids.freeShipping, ids.spring, ids.coupon].every((id) => applied.has(id))).toBe(true);
    expect(placed[0]!.promotions.find((p) => p.promotionId === ids.freeShipping)).toMatchObject({ amount: 4.95, shippingAmount: 4.95 });

    const usd = await report(`from=${window.from}&to=${window.to}&currency=USD&limit=100`, await keyWith(['reports:read']));
    expect(usd).toMatchObject({ currency: 'USD', from: window.from, to: window.to });
    const expected = bruteForce(placed, 'USD', window.from, window.to);
    expect(usd.promotions).toEqual(expected);
    // Spot checks of what the brute force must have found: the cancelled order's code counts once, the coupon by its code.
    const byId = Object.fromEntries(usd.promotions.map((p: any) => [p.promotionId, p]));
    expect(byId[ids.spring]).toMatchObject({ name: expect.stringContaining('Spring'), code: ids.springCode, orders: 1 });
    expect(byId[ids.coupon]).toMatchObject({ name: ids.couponCode, code: ids.couponCode, orders: 1 });
    expect(byId[ids.sale]).toMatchObject({ name: 'Lamp sale, renamed', orders: 3 });
    expect(byId[ids.freeShipping]).toMatchObject({ orders: 4, discountTotal: 19.8, shippingDiscount: 19.8 });
  });

  it('keeps currencies apart, leaves out days outside the range, and ranks by discount with a limit', async () => {
    const eur = await report(`from=${window.from}&to=${window.to}&currency=EUR`);
    expect(eur.promotions).toEqual(bruteForce(placed, 'EUR', window.from, window.to));
    expect(eur.promotions.map((p: any) => p.promotionId).sort()).toEqual([ids.sale, ids.freeShipping, ids.coupon].sort());
    // The default currency is the store's.
    expect((await report(`from=${window.from}&to=${window.to}&limit=100`)).promotions).toEqual(bruteForce(placed, 'USD', window.from, window.to));

    const before = await report('from=2024-02-10&to=2024-02-10');
    expect(before.promotions).toEqual(bruteForce(placed, 'USD', '2024-02-10', '2024-02-10'));
    expect(before.promotions.map((p: any) => `${p.promotionId} ${p.orders}`).sort()).toEqual([`${ids.sale} 1`, `${ids.freeShipping} 1`].sort());
    expect((await report('from=2024-02-11&to=2024-03-31')).promotions).toEqual([]);

    const top = await report(`from=${window.from}&to=${window.to}&limit=1`);
    expect(top.promotions).toEqual(bruteForce(placed, 'USD', window.from, window.to).slice(0, 1));
  });

  it('needs reports:read, and answers a bad query 400 in the envelope', async () => {
    expectError(await api('/api/reports/promotions', { key: await keyWith(['orders:read']) }), 403, 'AUTHORIZATION_ERROR');
    expectError(await api('/api/reports/promotions'), 401, 'AUTHENTICATION_ERROR');
    for (const query of ['from=2025-03-10&to=2025-03-01', 'from=2025-02-30', 'currency=XYZ', 'limit=0', 'limit=101', 'interval=day', 'from=2000-01-01&to=2025-01-01']) {
      expectError(await api(`/api/reports/promotions?${query}`, { key }), 400, 'INVALID_REQUEST');
    }
  });
});
