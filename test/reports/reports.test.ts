import { describe, expect, it } from 'vitest';
import type { Principal } from '../../src/lib/access';
import { ALL_ORDERS } from '../../src/modules/orders/orders.access';
import { cancelOrder } from '../../src/modules/orders/orders.service';
import { placeOrder } from '../../src/modules/orders/place-order';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service';
import { createRole } from '../../src/modules/roles/roles.service';
import { adminKey, api, createProduct, db, expectError, insertUser, uid } from '../helpers';

// The reports API over orders placed on known days of 2025 (a year no other test writes to).

const ROOT: Principal = { kind: 'user', id: 'test-root', role: 'admin', permissions: ['*'], vendorId: null };

async function reportsKey() {
  const role = await createRole(db(), ROOT, { name: `Reports ${uid()}`, permissions: ['reports:read'] });
  return (await createApiKey(db(), { name: 'reports', role: role.id })).key;
}

/** Placed once for the file (its tests share storage), so each sees exactly these orders in 2025. */
let placed: ReturnType<typeof placeFixture> | undefined;
const fixture = () => (placed ??= placeFixture());

async function placeFixture() {
  const key = await adminKey();
  const mug = await createProduct(key, { name: `Mug ${uid()}`, price: 10, stock: 1000 });
  const tote = await createProduct(key, { name: `Tote ${uid()}`, price: 25, stock: 1000 });
  const { user } = await insertUser();
  const place = (day: string, lines: [string, number][], customerId: string | null = null, email = `r-${uid()}@example.test`) =>
    placeOrder(db(), { customerId, email, lines: lines.map(([variantId, quantity]) => ({ variantId, quantity })), actor: 'system' }, new Date(`${day}T12:00:00Z`)).then(
      (p) => p.order,
    );
  const m = mug.variants[0].id;
  const t = tote.variants[0].id;
  // Week of Mon 2025-03-03: three orders (one cancelled); the next week one; April one.
  await place('2025-03-03', [[m, 2]], user.id, user.email); // 20, the customer's first
  await place(
    '2025-03-05',
    [
      [t, 1],
      [m, 1],
    ],
    user.id,
    user.email,
  ); // 35, returning
  const cancelled = await place('2025-03-09', [[t, 4]]); // cancelled: not counted
  await cancelOrder(db(), cancelled.id, ALL_ORDERS, 'test', 'system');
  await place('2025-03-10', [[t, 2]]); // 50, a guest's first
  await place('2025-04-15', [[m, 5]]); // 50
  return { mug, tote };
}

describe('reports', () => {
  it('sums sales by week and month, empty periods included, cut to the range', async () => {
    await fixture();
    const key = await reportsKey();
    const weekly = await api('/api/reports/sales?from=2025-03-01&to=2025-03-16&interval=week', { key });
    expect(weekly.status, JSON.stringify(weekly.body)).toBe(200);
    const report = weekly.body.data;
    expect(report).toMatchObject({ currency: 'USD', from: '2025-03-01', to: '2025-03-16', interval: 'week' });
    expect(report.periods.map((p: any) => [p.start, p.end, p.orders, p.units, p.gross, p.sales])).toEqual([
      ['2025-03-01', '2025-03-02', 0, 0, 0, 0],
      ['2025-03-03', '2025-03-09', 2, 4, 55, 55],
      ['2025-03-10', '2025-03-16', 1, 2, 50, 50],
    ]);
    expect(report.totals).toMatchObject({ orders: 3, units: 6, gross: 105, discounts: 0, refunds: 0, net: 105, sales: 105, averageOrderValue: 35 });
    const monthly = (await api('/api/reports/sales?from=2025-03-01&to=2025-05-31&interval=month', { key })).body.data;
    expect(monthly.periods.map((p: any) => [p.start, p.orders, p.sales])).toEqual([
      ['2025-03-01', 3, 105],
      ['2025-04-01', 1, 50],
      ['2025-05-01', 0, 0],
    ]);
    const daily = (await api('/api/reports/sales?from=2025-03-03&to=2025-03-05', { key })).body.data;
    expect(daily.periods.map((p: any) => p.orders)).toEqual([1, 0, 1]);
  });

  it('ranks products and splits new from returning customers', async () => {
    const { mug, tote } = await fixture();
    const key = await reportsKey();
    const topRes = await api('/api/reports/products?from=2025-03-01&to=2025-04-30&limit=100', { key });
    expect(topRes.status, JSON.stringify(topRes.body)).toBe(200);
    const top = topRes.body.data;
    const ours = top.products.filter((p: any) => p.productId === mug.id || p.productId === tote.id);
    expect(ours).toEqual([
      { productId: mug.id, name: mug.name, units: 8, revenue: 80, lines: 3 },
      { productId: tote.id, name: tote.name, units: 3, revenue: 75, lines: 2 },
    ]);
    // Whole March from the months, the ends of February and April from the days: the same sums.
    const mixed = (await api('/api/reports/products?from=2025-02-15&to=2025-04-20&limit=100', { key })).body.data;
    expect(mixed.products.filter((p: any) => p.productId === mug.id || p.productId === tote.id)).toEqual(ours);
    const april = (await api('/api/reports/products?from=2025-04-15&to=2025-04-15&limit=100', { key })).body.data;
    expect(april.products.filter((p: any) => p.productId === mug.id || p.productId === tote.id)).toEqual([{ ...ours[0], units: 5, revenue: 50, lines: 1 }]);
    const byUnits = (await api('/api/reports/products?from=2025-03-10&to=2025-03-10&sort=units', { key })).body.data;
    expect(byUnits.products.find((p: any) => p.productId === tote.id)).toMatchObject({ units: 2, revenue: 50 });
    const customers = (await api('/api/reports/customers?from=2025-03-03&to=2025-03-16&interval=week', { key })).body.data;
    expect(customers.periods[0]).toMatchObject({ start: '2025-03-03', newCustomers: 1, returningOrders: 1, newCustomerSales: 20, returningCustomerSales: 35 });
    expect(customers.periods[1]).toMatchObject({ newCustomers: 1, returningOrders: 0, newCustomerSales: 50 });
  });

  it('needs reports:read, and refuses a bad range or currency', async () => {
    const key = await reportsKey();
    const { token } = await insertUser();
    expectError(await api('/api/reports/sales', { key: token }), 403, 'AUTHORIZATION_ERROR');
    expectError(await api('/api/reports/sales'), 401, 'AUTHENTICATION_ERROR');
    expectError(await api('/api/reports/sales?from=2025-03-10&to=2025-03-01', { key }), 400, 'INVALID_REQUEST');
    expectError(await api('/api/reports/sales?from=2025-02-30', { key }), 400, 'INVALID_REQUEST');
    expectError(await api('/api/reports/sales?from=2000-01-01&to=2025-01-01', { key }), 400, 'INVALID_REQUEST');
    expectError(await api('/api/reports/sales?currency=XYZ', { key }), 400, 'INVALID_REQUEST');
    expectError(await api('/api/reports/sales?interval=year', { key }), 400, 'INVALID_REQUEST');
    const recent = await api('/api/reports/sales', { key });
    expect(recent.body.data.periods).toHaveLength(30);
    expect(recent.body.data.to).toBe(new Date().toISOString().slice(0, 10));
  });
});
