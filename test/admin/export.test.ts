import { describe, expect, it } from 'vitest';
import type { Principal } from '../../src/lib/access';
import { placeOrder } from '../../src/modules/orders/place-order';
import { createRole } from '../../src/modules/roles/roles.service';
import { createUser } from '../../src/modules/users/users.service';
import { adminKey, createProduct, db, uid } from '../helpers';
import { get, signIn } from './panel-client';

// The panel's "Export CSV": a list's filter form submitted to /admin/export/<list>, answered by the
// API's CSV export as the signed-in user.

const ROOT: Principal = { kind: 'user', id: 'test-root', role: 'admin', permissions: ['*'], vendorId: null };
const PASSWORD = 'correct horse battery';

async function staffWith(permissions: string[]) {
  const role = await createRole(db(), ROOT, { name: `Role ${uid()}`, permissions });
  const email = `export-${uid()}@example.com`;
  await createUser(db(), { email, password: PASSWORD, roleId: role.id, vendorId: null });
  return (await signIn(email, PASSWORD)).session;
}

describe('admin: export CSV', () => {
  it('offers Export CSV on the orders list and downloads the filtered orders, blank fields ignored', async () => {
    const session = await staffWith(['orders:read']);
    const variantId = (await createProduct(await adminKey(), { price: 4, stock: 100 })).variants[0].id;
    const email = `panel-${uid()}@example.test`;
    for (let i = 0; i < 3; i++) await placeOrder(db(), { customerId: null, email, lines: [{ variantId, quantity: 1 }], actor: 'system' });
    const list = await get('/admin/orders', session);
    expect(list.html).toContain('formaction="/admin/export/orders"');
    const csv = await get(`/admin/export/orders?status=pending&created_after=&customer=&page=2`, session);
    expect(csv.res.status, csv.html).toBe(200);
    expect(csv.res.headers.get('Content-Type')).toBe('text/csv; charset=utf-8');
    const lines = csv.html.trim().split('\r\n');
    expect(lines[0]!.split(',').slice(0, 3)).toEqual(['id', 'number', 'customerId']);
    expect(lines.filter((l) => l.includes(email))).toHaveLength(3);
  });

  it('refuses what the user may not list, and needs a session', async () => {
    const session = await staffWith(['orders:read']);
    const refused = await get('/admin/export/customers', session);
    expect(refused.res.status).toBe(403);
    expect(refused.html).toContain('Not allowed');
    // Only a list of the API: a path that climbs out of /api is not followed.
    expect((await get('/admin/export/..%2Fadmin%2Fsettings', session)).res.status).toBe(404);
    expect((await get('/admin/export/orders%2F..%2F..%2Fadmin', session)).res.status).toBe(404);
    const signedOut = await get('/admin/export/orders', '');
    expect(signedOut.res.status).toBe(303);
  });
});
