import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { events } from '../../src/db/schema';
import type { Principal } from '../../src/lib/access';
import { createRole } from '../../src/modules/roles/roles.service';
import { createUser } from '../../src/modules/users/users.service';
import { adminKey, api, db, uid } from '../helpers';
import { cookieIn, csrfIn, get, post, signIn } from './panel-client';

// Deleting a product from its edit page: the same guard and service as DELETE /api/products/{id}.

const ROOT: Principal = { kind: 'user', id: 'test-root', role: 'admin', permissions: ['*'], vendorId: null };

async function staff(roleId: string) {
  const email = `${roleId}-${uid()}@example.com`;
  await createUser(db(), { email, password: 'correct horse battery', roleId });
  return (await signIn(email, 'correct horse battery')).session;
}

async function product() {
  const res = await api('/api/products', { method: 'POST', key: await adminKey(), json: { name: `Doomed ${uid()}`, price: 12.5 } });
  expect(res.status).toBe(201);
  return res.body.data as { id: string; name: string };
}

it('deletes a product from its page, emitting product.deleted, and the API no longer finds it', async () => {
  const doomed = await product();
  const session = await staff('admin');
  const page = await get(`/admin/products/${doomed.id}`, session);
  expect(page.html).toContain(`action="/admin/products/${doomed.id}/delete"`);
  const { res } = await post(`/admin/products/${doomed.id}/delete`, { _csrf: csrfIn(page.html) }, session);
  expect(res.status).toBe(303);
  expect(res.headers.get('Location')).toBe('/admin/products');
  expect(decodeURIComponent(decodeURIComponent(cookieIn(res, 'admin_flash') ?? ''))).toContain('deleted');
  expect((await api(`/api/products/${doomed.id}`, { key: await adminKey() })).status).toBe(404);
  const emitted = await db().select().from(events).where(eq(events.type, 'product.deleted'));
  expect(emitted.some((e) => (e.data as { productId?: string }).productId === doomed.id)).toBe(true);
});

it('refuses a user who may read products but not write them', async () => {
  const doomed = await product();
  const role = await createRole(db(), ROOT, { name: `reader-${uid()}`, permissions: ['products:read'] });
  const session = await staff(role.id);
  const page = await get(`/admin/products/${doomed.id}`, session);
  const { res } = await post(`/admin/products/${doomed.id}/delete`, { _csrf: csrfIn(page.html) }, session);
  expect(res.status).toBe(403);
  expect((await api(`/api/products/${doomed.id}`, { key: await adminKey() })).status).toBe(200);
});
