import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { carts, products } from '../../src/db/schema';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service';
import { adminKey, api, createProduct, db, expectError, insertUser, insertVendorUser, uid } from '../helpers';

let key: string;
beforeAll(async () => {
  key = await adminKey();
});

/** A guest cart with `email`, holding `quantity` of a new product at `price`. */
async function cartWith(email: string, price: number, quantity = 1) {
  const created = await api('/api/carts', { method: 'POST', json: { email } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const { id, token } = created.body.data;
  const product = await createProduct(key, { price, stock: 50 });
  const added = await api(`/api/carts/${id}/lines`, { method: 'POST', json: { variantId: product.variants[0].id, quantity }, headers: { 'X-Cart-Token': token } });
  expect(added.status, JSON.stringify(added.body)).toBe(200);
  return { id, token, product };
}
const ids = (res: { body: any }) => res.body.data.map((c: { id: string }) => c.id) as string[];

describe('GET /api/carts (staff)', () => {
  it('lists carts, most recently changed first, each priced as checkout would price it', async () => {
    const email = `list-${uid()}@example.com`;
    const small = await cartWith(email, 5, 2);
    const big = await cartWith(email, 40, 3);
    const res = await api(`/api/carts?email=${email.toUpperCase()}`, { key });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(ids(res)).toEqual([big.id, small.id]);
    expect(res.body.pagination.total).toBe(2);
    expect(res.body.data[0]).toMatchObject({ status: 'active', email, lines: [{ quantity: 3, unitPrice: 40 }], totals: { subtotal: 120 } });
    expect(res.body.data[0].token).toBeUndefined();
    expect(ids(await api(`/api/carts?email=${email}&sort=created_at:asc`, { key }))).toEqual([small.id, big.id]);
    expect(ids(await api(`/api/carts?email=${email}&min_total=100`, { key }))).toEqual([big.id]);
    expect(ids(await api(`/api/carts?email=${email}&min_total=10`, { key }))).toEqual([big.id, small.id]);
    expect(ids(await api(`/api/carts?email=${email}&status=converted`, { key }))).toEqual([]);
    expect((await api(`/api/carts?email=${email}&fields=id,status`, { key })).body.data[0]).toEqual({ id: big.id, status: 'active' });
  });

  it('finds carts idle since a moment, a customer, and those created after a day', async () => {
    const email = `idle-${uid()}@example.com`;
    const idle = await cartWith(email, 7);
    await cartWith(email, 8); // changed just now: not idle
    await db().update(carts).set({ updatedAt: '2026-01-01T08:00:00.000Z' }).where(eq(carts.id, idle.id));
    expect(ids(await api(`/api/carts?email=${email}&updated_before=2026-01-01T09:00:00Z`, { key }))).toEqual([idle.id]);
    expect(ids(await api(`/api/carts?email=${email}&updated_before=2026-01-01`, { key }))).toEqual([]);
    expect(ids(await api(`/api/carts?email=${email}&created_after=2999-01-01`, { key }))).toEqual([]);
    const customer = await insertUser();
    const own = await api('/api/carts', { method: 'POST', key: customer.token, json: {} });
    expect(ids(await api(`/api/carts?customer=${customer.user.id}`, { key }))).toEqual([own.body.data.id]);
  });

  it('prices without changing the cart: a product off sale is announced, not removed, and the idle clock stays', async () => {
    const email = `stale-${uid()}@example.com`;
    const cart = await cartWith(email, 9);
    await db().update(carts).set({ updatedAt: '2026-02-01T00:00:00.000Z' }).where(eq(carts.id, cart.id));
    await db().update(products).set({ status: 'archived' }).where(eq(products.id, cart.product.id));
    const listed = (await api(`/api/carts?email=${email}`, { key })).body.data[0];
    expect(listed.notices.map((n: { code: string }) => n.code)).toEqual(['line_removed']);
    const [row] = await db().select().from(carts).where(eq(carts.id, cart.id));
    expect(row!.updatedAt).toBe('2026-02-01T00:00:00.000Z');
    // Its owner's next read removes the line, as before.
    const own = await api(`/api/carts/${cart.id}`, { headers: { 'X-Cart-Token': cart.token } });
    expect(own.body.data.lines).toEqual([]);
  });

  it('is 401 anonymously, 404 for customers and vendor users, 403 for a key without the permission', async () => {
    expectError(await api('/api/carts'), 401, 'AUTHENTICATION_ERROR');
    const customer = await insertUser();
    expectError(await api('/api/carts', { key: customer.token }), 404, 'NOT_FOUND');
    expectError(await api('/api/carts', { key: (await insertVendorUser()).token }), 404, 'NOT_FOUND');
    const { key: narrow } = await createApiKey(db(), { name: 'products only', permissions: ['products:read'] });
    expectError(await api('/api/carts', { key: narrow }), 403, 'AUTHORIZATION_ERROR');
    const { key: reader } = await createApiKey(db(), { name: 'carts reader', permissions: ['carts:read'] });
    expect((await api('/api/carts', { key: reader })).status).toBe(200);
    expectError(await api('/api/carts?min_total=-1', { key }), 400, 'INVALID_REQUEST');
    expectError(await api('/api/carts?updated_before=soon', { key }), 400, 'INVALID_REQUEST');
  });
});
