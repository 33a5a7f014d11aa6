import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { orders, productVariants, users, vendors } from '../../src/db/schema';
import { adminKey, api, createProduct, db, insertUser, insertVendorUser, uid } from '../helpers';

/**
 * A user token this isolate confirmed lately is not looked up again (src/middleware/credentials/user-token-cache.ts):
 * the user's check rides in the request's first batch, as a cached API key's does, so a signed-in
 * customer's order is one D1 round trip; a token retired, an account disabled, an email changed or
 * a role narrowed since is still refused (or answered from the user as it is now) on that very
 * request, and nothing the stale request wrote commits.
 */

let admin: string;
let variantId: string;
beforeAll(async () => {
  admin = await adminKey();
  variantId = (await createProduct(admin, { price: 9.5, stock: 1000 })).variants[0].id;
});

const order = (token: string, quantity = 1) => api('/api/orders', { method: 'POST', key: token, json: { lines: [{ variantId, quantity }] } });
const ordersOf = async (userId: string) => db().select({ id: orders.id, email: orders.email }).from(orders).where(eq(orders.customerId, userId));
const stock = async () => (await db().select({ stock: productVariants.stock }).from(productVariants).where(eq(productVariants.id, variantId)))[0]!.stock;
const roundTrips = (res: { headers: Headers }) => Number(res.headers.get('X-D1-Round-Trips'));

/** A customer whose token this isolate has confirmed (one order placed with it). */
async function signedInCustomer() {
  const customer = await insertUser();
  const first = await order(customer.token);
  expect(first.status, JSON.stringify(first.body)).toBe(201);
  return { ...customer, first };
}

describe('requests with a recently confirmed user token', () => {
  it("a signed-in customer's second order is one D1 round trip: the user's check and email ride in the order's batch", async () => {
    const { user, token, first } = await signedInCustomer();
    const second = await order(token);
    expect(second.status, JSON.stringify(second.body)).toBe(201);
    // The first read the user (and the quote inputs) on its own; the second checked the user inside the order's one batch.
    expect(roundTrips(first)).toBeGreaterThanOrEqual(2);
    expect(roundTrips(second)).toBe(1);
    expect(second.body.data).toMatchObject({ customerId: user.id, email: user.email });
  });

  it('refuses a token retired since it was cached (password changed elsewhere) with 401, and writes nothing', async () => {
    const { user, token } = await signedInCustomer();
    await db()
      .update(users)
      .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
      .where(eq(users.id, user.id));
    const stockBefore = await stock();
    const res = await order(token, 2);
    expect(res.status, JSON.stringify(res.body)).toBe(401);
    expect(res.body.error.message).toBe('Invalid or expired token');
    expect(await ordersOf(user.id)).toHaveLength(1);
    expect(await stock()).toBe(stockBefore);
  });

  it('refuses an account disabled since it was cached with 401, on reads as on writes', async () => {
    const { user, token } = await signedInCustomer();
    await db().update(users).set({ status: 'disabled' }).where(eq(users.id, user.id));
    const read = await api('/api/orders', { key: token });
    expect(read.status, JSON.stringify(read.body)).toBe(401);
    expect(read.body.error.message).toBe('This account is disabled');
    const write = await order(token);
    expect(write.status).toBe(401);
    expect(await ordersOf(user.id)).toHaveLength(1);
  });

  it('orders with the email the account has now, not the one cached with the token', async () => {
    const { user, token } = await signedInCustomer();
    const email = `moved-${uid()}@example.test`;
    await db().update(users).set({ email }).where(eq(users.id, user.id));
    const res = await order(token);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.email).toBe(email);
    expect((await ordersOf(user.id)).map((o) => o.email).sort()).toEqual([email, user.email].sort());
  });

  it('refuses a staff user whose role lost the permission since it was cached with 403', async () => {
    const role = `reader-${uid()}`.toLowerCase();
    const created = await api('/api/roles', { method: 'POST', key: admin, json: { name: role, permissions: ['customers:read'] } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { token } = await insertUser({ role: created.body.data.id });
    expect((await api('/api/customers', { key: token })).status).toBe(200);
    const narrowed = await api(`/api/roles/${created.body.data.id}`, { method: 'PATCH', key: admin, json: { permissions: ['products:read'] } });
    expect(narrowed.status, JSON.stringify(narrowed.body)).toBe(200);
    const res = await api('/api/customers', { key: token });
    expect(res.status, JSON.stringify(res.body)).toBe(403);
    expect(res.body.error.code).toBe('AUTHORIZATION_ERROR');
  });

  it('refuses a vendor user once the vendor is suspended since it was cached, with 403', async () => {
    const { vendor, token } = await insertVendorUser();
    expect((await api('/api/orders', { key: token })).status).toBe(200);
    await db().update(vendors).set({ status: 'suspended' }).where(eq(vendors.id, vendor.id));
    const res = await api('/api/orders', { key: token });
    expect(res.status, JSON.stringify(res.body)).toBe(403);
    expect(res.body.error.message).toBe('The vendor of this account is suspended');
  });
});
