import { env } from 'cloudflare:workers';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { carts, events } from '../../src/db/schema';
import { abandonIdleCarts } from '../../src/modules/carts/abandonment';
import { adminKey, api, createProduct, db, insertUser, uid } from '../helpers';
import { insertEndpoint, openChannel } from '../webhooks/receiver-setup';

let key: string;
let variantId: string;
beforeAll(async () => {
  key = await adminKey();
  variantId = (await createProduct(key, { price: 12, stock: 100 })).variants[0].id;
});

const HOUR = 3_600_000;
const hoursAgo = (n: number) => new Date(Date.now() - n * HOUR).toISOString();

/** A guest cart (with `email` unless null), holding one line unless `empty`, last changed `idleHours` ago. */
async function idleCart({ email = `shopper-${uid()}@example.com` as string | null, empty = false, idleHours = 2 } = {}) {
  const created = await api('/api/carts', { method: 'POST', json: email ? { email } : {} });
  const { id, token } = created.body.data;
  if (!empty) expect((await api(`/api/carts/${id}/lines`, { method: 'POST', json: { variantId, quantity: 2 }, headers: { 'X-Cart-Token': token } })).status).toBe(200);
  await db()
    .update(carts)
    .set({ updatedAt: hoursAgo(idleHours) })
    .where(eq(carts.id, id));
  return { id, token, email };
}
const statusOf = async (id: string) => (await db().select().from(carts).where(eq(carts.id, id)))[0]!;
const abandonedEvents = async (cartId: string) =>
  db()
    .select()
    .from(events)
    .where(and(eq(events.type, 'cart.abandoned'), sql`json_extract(${events.data}, '$.cartId') = ${cartId}`));

describe('abandoned carts', () => {
  it('marks a cart idle past CART_ABANDONED_AFTER_MINUTES abandoned once, with one cart.abandoned event', async () => {
    const cart = await idleCart();
    expect(await abandonIdleCarts(env)).toBeGreaterThanOrEqual(1);
    const row = await statusOf(cart.id);
    expect(row.status).toBe('abandoned');
    expect(row.abandonedAt).not.toBeNull();
    // The idle clock is left alone: it still says since when.
    expect(new Date(row.updatedAt).getTime()).toBeLessThan(Date.now() - HOUR);
    const [event] = await abandonedEvents(cart.id);
    expect(event!.data).toEqual({
      cartId: cart.id,
      customerId: null,
      email: cart.email,
      currency: 'USD',
      idleSince: row.updatedAt,
      abandonedAt: row.abandonedAt,
      recoveryId: expect.stringMatching(/^crec_/),
    });
    await abandonIdleCarts(env);
    expect(await abandonedEvents(cart.id)).toHaveLength(1);
  });

  it('leaves alone carts without lines, without an email, recently changed, or converted', async () => {
    const empty = await idleCart({ empty: true });
    const anonymous = await idleCart({ email: null });
    const recent = await idleCart({ idleHours: 0.5 });
    const converted = await idleCart();
    await db().update(carts).set({ status: 'converted' }).where(eq(carts.id, converted.id));
    await abandonIdleCarts(env);
    expect((await statusOf(empty.id)).status).toBe('active');
    expect((await statusOf(anonymous.id)).status).toBe('active');
    expect((await statusOf(recent.id)).status).toBe('active');
    expect((await statusOf(converted.id)).status).toBe('converted');
    for (const cart of [empty, anonymous, recent, converted]) expect(await abandonedEvents(cart.id)).toHaveLength(0);
    // An hour's setting decides: with 20 minutes the half-hour-idle cart is abandoned too.
    await abandonIdleCarts({ ...env, CART_ABANDONED_AFTER_MINUTES: '20' });
    expect((await statusOf(recent.id)).status).toBe('abandoned');
  });

  it('reopens a cart used again, and abandons it again later without a second event', async () => {
    const cart = await idleCart();
    await abandonIdleCarts(env);
    const first = await statusOf(cart.id);
    expect(first.status).toBe('abandoned');
    const read = await api(`/api/carts/${cart.id}`, { headers: { 'X-Cart-Token': cart.token } });
    expect(read.body.data.status).toBe('abandoned');
    const used = await api(`/api/carts/${cart.id}/lines`, { method: 'POST', json: { variantId, quantity: 1 }, headers: { 'X-Cart-Token': cart.token } });
    expect(used.status).toBe(200);
    expect(used.body.data.status).toBe('active');
    expect(used.body.data.lines[0].quantity).toBe(3);
    const reopened = await statusOf(cart.id);
    expect(reopened.abandonedAt).toBe(first.abandonedAt);
    await db()
      .update(carts)
      .set({ updatedAt: hoursAgo(3) })
      .where(eq(carts.id, cart.id));
    await abandonIdleCarts(env);
    expect((await statusOf(cart.id)).status).toBe('abandoned');
    expect(await abandonedEvents(cart.id)).toHaveLength(1);
  });

  it("keeps a customer's abandoned cart as theirs: /carts/me reads it, POST /api/carts reopens it", async () => {
    const customer = await insertUser();
    const created = await api('/api/carts', { method: 'POST', key: customer.token, json: {} });
    const id = created.body.data.id;
    expect((await api('/api/carts/me/lines', { method: 'POST', key: customer.token, json: { variantId, quantity: 1 } })).status).toBe(200);
    await db()
      .update(carts)
      .set({ updatedAt: hoursAgo(2) })
      .where(eq(carts.id, id));
    await abandonIdleCarts(env);
    const [event] = await abandonedEvents(id);
    expect(event!.data).toMatchObject({ customerId: customer.user.id, email: customer.user.email });
    expect((await api('/api/carts/me', { key: customer.token })).body.data).toMatchObject({ id, status: 'abandoned' });
    const again = await api('/api/carts', { method: 'POST', key: customer.token, json: {} });
    expect(again.body.data).toMatchObject({ id, status: 'active' });
    expect((await api(`/api/carts?customer=${customer.user.id}&status=active`, { key })).body.data.map((c: { id: string }) => c.id)).toEqual([id]);
  });

  it('delivers cart.abandoned signed to a webhook endpoint', { timeout: 30_000 }, async () => {
    const receiver = await openChannel();
    await insertEndpoint({ url: receiver.url, events: ['cart.abandoned'] });
    const cart = await idleCart();
    await abandonIdleCarts(env);
    await expect.poll(async () => (await receiver.requests()).filter((r) => r.answered === 200 && r.body.includes(cart.id)).length, { timeout: 20_000, interval: 250 }).toBe(1);
    const delivered = (await receiver.requests()).find((r) => r.body.includes(cart.id))!;
    expect(delivered.headers['x-store-event']).toBe('cart.abandoned');
    expect(delivered.headers['x-store-signature']).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.parse(delivered.body)).toMatchObject({ event: 'cart.abandoned', data: { cartId: cart.id, email: cart.email } });
  });
});
