import { describe, expect, it } from 'vitest';
import type { Principal } from '../../src/lib/access';
import { placeOrder } from '../../src/modules/orders/place-order';
import { createRole } from '../../src/modules/roles/roles.service';
import { createUser } from '../../src/modules/users/users.service';
import { adminKey, api, createProduct, db, uid } from '../helpers';
import { get, signIn } from './panel-client';

// The panel's Reports page (charts drawn as SVG over the reports API's figures) and the dashboard's sparkline.

const ROOT: Principal = { kind: 'user', id: 'test-root', role: 'admin', permissions: ['*'], vendorId: null };

async function staffWith(permissions: string[]) {
  const role = await createRole(db(), ROOT, { name: `Role ${uid()}`, permissions });
  const email = `reports-${uid()}@example.com`;
  await createUser(db(), { email, password: 'correct horse battery', roleId: role.id, vendorId: null });
  return (await signIn(email, 'correct horse battery')).session;
}

describe('admin: reports', () => {
  it('charts sales and orders per period with the figures in a table, and lists best sellers', async () => {
    const product = await createProduct(await adminKey(), { name: `Lamp ${uid()}`, price: 30, stock: 100 });
    for (const day of ['2024-06-03', '2024-06-04', '2024-06-04']) {
      await placeOrder(
        db(),
        { customerId: null, email: `p-${uid()}@example.test`, lines: [{ variantId: product.variants[0].id, quantity: 1 }], actor: 'system' },
        new Date(`${day}T10:00:00Z`),
      );
    }
    const session = await staffWith(['reports:read']);
    const res = await get('/admin/reports?from=2024-06-01&to=2024-06-07&interval=day&currency=USD', session);
    expect(res.res.status).toBe(200);
    expect(res.html).toContain('<svg class="chart" viewBox="0 0 640 220" role="img" aria-labelledby="revenue-title revenue-desc">');
    expect(res.html).toContain('<title id="revenue-title">Sales in USD by day, 2024-06-01 to 2024-06-07</title>');
    expect(res.html).toContain('7 periods, 90.00 USD in all; highest 60.00 USD (2024-06-04)');
    expect((res.html.match(/<rect class="bar"/g) ?? []).length).toBe(14); // 7 days, two charts
    expect(res.html).toContain('<th scope="row">2024-06-04</th><td class="num">2</td>');
    expect(res.html).toContain(`<a href="/admin/products/${product.id}">${product.name}</a>`);
    expect(res.html).toContain('<a href="/admin/reports" aria-current="page">Reports</a>');
  });

  it('lists discounts by promotion in the range', async () => {
    const key = await adminKey();
    const product = await createProduct(key, { name: `Rug ${uid()}`, price: 40, stock: 100 });
    const name = `Rug week ${uid()}`;
    const promotion = await api('/api/promotions', { method: 'POST', key, json: { name, type: 'percentage', value: 25, target: 'items', include: { productIds: [product.id] } } });
    expect(promotion.status, JSON.stringify(promotion.body)).toBe(201);
    for (const quantity of [1, 2]) {
      const { order } = await placeOrder(
        db(),
        { customerId: null, email: `p-${uid()}@example.test`, lines: [{ variantId: product.variants[0].id, quantity }], actor: 'system' },
        new Date('2024-07-10T10:00:00Z'),
      );
      expect(order.discountTotal).toBe(quantity * 1000);
    }
    const res = await get('/admin/reports?from=2024-07-10&to=2024-07-10&interval=day&currency=USD', await staffWith(['reports:read']));
    expect(res.res.status).toBe(200);
    expect(res.html).toContain('<h2 id="promotions-h">Promotions</h2>');
    // Two orders, 30.00 off, none of it shipping, 90.00 charged.
    expect(res.html).toContain(`<td>${name}</td><td>—</td><td class="num">2</td><td class="num">30.00 USD</td><td class="num">0.00 USD</td><td class="num">90.00 USD</td>`);
    const empty = await get('/admin/reports?from=2024-07-11&to=2024-07-11&interval=day&currency=USD', await staffWith(['reports:read']));
    expect(empty.html).toContain('No promotion applied in this range.');
  });

  it('shows a bad range next to its field, and is 403 without reports:read', async () => {
    const session = await staffWith(['reports:read']);
    const bad = await get('/admin/reports?from=2024-06-09&to=2024-06-01', session);
    expect(bad.res.status).toBe(400);
    expect(bad.html).toContain('must be on or before');
    const other = await staffWith(['orders:read']);
    expect((await get('/admin/reports', other)).res.status).toBe(403);
    expect((await get('/admin', other)).html).not.toContain('href="/admin/reports"');
  });

  it("draws the dashboard's 30-day sparkline for those who may read reports", async () => {
    const session = await staffWith(['reports:read', 'orders:read']);
    const dashboard = await get('/admin', session);
    expect(dashboard.html).toMatch(/<svg class="sparkline" viewBox="0 0 200 40" role="img" aria-label="Sales per day over the last 30 days: [^"]+"/);
    expect((dashboard.html.match(/<polyline points="([^"]+)"/)?.[1] ?? '').split(' ')).toHaveLength(30);
    // Each figure says what it counts, so "Orders today 6" beside "Sales (3 orders)" explains itself.
    expect(dashboard.html).toContain('Orders placed today, any status');
    expect(dashboard.html).toContain('Revenue today, cancelled orders left out');
    expect(dashboard.html).toMatch(/Sales, last 30 days: (<!-- -->)?\d+(<!-- -->)? orders? in (<!-- -->)?[A-Z]{3}(<!-- -->)?, paid or not; cancelled ones left out/);
  });
});
