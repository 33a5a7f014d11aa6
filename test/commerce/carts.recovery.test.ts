import { env } from 'cloudflare:workers';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { carts, events, users } from '../../src/db/schema';
import { abandonIdleCarts } from '../../src/modules/carts/abandonment';
import { recoveryToken } from '../../src/modules/carts/recovery';
import { outgoingMessage } from '../../src/notifications/outgoing';
import { planEventNotifications } from '../../src/notifications/planner';
import { adminKey, api, createProduct, db, insertUser, uid } from '../helpers';

let variantId: string;
beforeAll(async () => {
  variantId = (await createProduct(await adminKey(), { name: `Teapot ${uid()}`, price: 18, stock: 100 })).variants[0].id;
});

const hoursAgo = (n: number) => new Date(Date.now() - n * 3_600_000).toISOString();
const abandonedEvent = async (cartId: string) =>
  (
    await db()
      .select()
      .from(events)
      .where(and(eq(events.type, 'cart.abandoned'), sql`json_extract(${events.data}, '$.cartId') = ${cartId}`))
  )[0]!;

async function abandon(cartId: string) {
  await db()
    .update(carts)
    .set({ updatedAt: hoursAgo(2) })
    .where(eq(carts.id, cartId));
  await abandonIdleCarts(env);
  return abandonedEvent(cartId);
}

async function guestCart() {
  const created = (await api('/api/carts', { method: 'POST', json: { email: `guest-${uid()}@example.com` } })).body.data;
  await api(`/api/carts/${created.id}/lines`, { method: 'POST', json: { variantId, quantity: 1 }, headers: { 'X-Cart-Token': created.token } });
  return { id: created.id as string, token: created.token as string };
}

async function customerCart(values: { marketingEmailOptOut?: boolean } = {}) {
  const customer = await insertUser();
  if (values.marketingEmailOptOut) await db().update(users).set({ marketingEmailOptOut: true }).where(eq(users.id, customer.user.id));
  const id = (await api('/api/carts', { method: 'POST', key: customer.token, json: {} })).body.data.id as string;
  await api('/api/carts/me/lines', { method: 'POST', key: customer.token, json: { variantId, quantity: 2 } });
  return { id, customer };
}

const recover = (cartId: string, token: string) => api(`/api/carts/${cartId}/recover`, { method: 'POST', json: { token } });

describe('cart reminders', () => {
  it("email a customer once, with a link whose token only the provider's copy holds", async () => {
    const { id, customer } = await customerCart();
    const event = await abandon(id);
    const planned = await planEventNotifications(db(), { id: event.id, type: event.type, data: event.data });
    expect(planned).toHaveLength(1);
    const [message] = planned;
    expect(message).toMatchObject({ template: 'cart_reminder', channel: 'email', recipient: customer.user.email, status: 'queued', category: 'marketing' });
    expect(message!.body).toContain('2 x Teapot');
    expect(message!.body).toContain(`http://localhost:3000/cart?cart=${id}&token=%5Bredacted%5D`);
    const token = await recoveryToken(env.JWT_SECRET!, event.data.recoveryId as string);
    expect(JSON.stringify(message)).not.toContain(token);
    const sent = await outgoingMessage(env, message!);
    expect('error' in sent).toBe(false);
    expect((sent as { body: string }).body).toContain(`cart=${id}&token=${token}`);
    expect((sent as { bodyHtml: string }).bodyHtml).toContain(`href="http://localhost:3000/cart?cart=${id}&amp;token=${token}"`);
    // One event per cart, so one reminder: abandoned again later, nothing new is planned.
    await api(`/api/carts/${id}/lines`, { method: 'POST', json: { variantId, quantity: 1 }, key: customer.token });
    await abandon(id);
    expect(
      await db()
        .select()
        .from(events)
        .where(and(eq(events.type, 'cart.abandoned'), sql`json_extract(${events.data}, '$.cartId') = ${id}`)),
    ).toHaveLength(1);
  });

  it("put the token back only where the reminder's link is, not where a product's name says [redacted]", async () => {
    // Product names are products:write's (a vendor's too), not the template's: one must not carry the token off.
    const bait = 'https://attacker.example/?t=[redacted]&u=%5Bredacted%5D';
    const baitVariant = (await createProduct(await adminKey(), { name: `Mug ${bait}`, price: 5, stock: 10 })).variants[0].id;
    const { id, customer } = await customerCart();
    await api('/api/carts/me/lines', { method: 'POST', key: customer.token, json: { variantId: baitVariant, quantity: 1 } });
    const event = await abandon(id);
    const [message] = await planEventNotifications(db(), { id: event.id, type: event.type, data: event.data });
    const token = await recoveryToken(env.JWT_SECRET!, event.data.recoveryId as string);
    const sent = (await outgoingMessage(env, message!)) as { body: string; bodyHtml: string };
    expect(sent.body.split(token)).toHaveLength(2);
    expect(sent.bodyHtml.split(token)).toHaveLength(2);
    expect(sent.body).toContain(`cart=${id}&token=${token}`);
    expect(sent.body).toContain('Mug https://attacker.example/?t=(redacted)&u=(redacted)');
  });

  it('respect the opt-out from marketing email, and never go to a guest', async () => {
    const opted = await customerCart({ marketingEmailOptOut: true });
    const optedEvent = await abandon(opted.id);
    const [skipped] = await planEventNotifications(db(), { id: optedEvent.id, type: optedEvent.type, data: optedEvent.data });
    expect(skipped).toMatchObject({ status: 'skipped', lastError: 'the recipient opted out of marketing email' });
    const guest = await guestCart();
    const guestEvent = await abandon(guest.id);
    expect(await planEventNotifications(db(), { id: guestEvent.id, type: guestEvent.type, data: guestEvent.data })).toEqual([]);
  });
});

describe('POST /api/carts/{id}/recover', () => {
  it('reopens the cart once with a new cart token; the old token stops working', async () => {
    const cart = await guestCart();
    const event = await abandon(cart.id);
    const token = await recoveryToken(env.JWT_SECRET!, event.data.recoveryId as string);
    const res = await recover(cart.id, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ id: cart.id, status: 'active', lines: [{ quantity: 1 }] });
    expect(res.body.data.token).toMatch(/^ct_/);
    expect(res.body.data.token).not.toBe(cart.token);
    expect((await api(`/api/carts/${cart.id}`, { headers: { 'X-Cart-Token': cart.token } })).status).toBe(404);
    expect((await api(`/api/carts/${cart.id}`, { headers: { 'X-Cart-Token': res.body.data.token } })).status).toBe(200);
    const again = await recover(cart.id, token);
    expect(again.status).toBe(404);
    expect(again.body.error.code).toBe('NOT_FOUND');
  });

  it("is 404 for a wrong token, or another cart's; 409 for a cart checked out since", async () => {
    const first = await guestCart();
    const second = await guestCart();
    const firstEvent = await abandon(first.id);
    await abandon(second.id);
    const token = await recoveryToken(env.JWT_SECRET!, firstEvent.data.recoveryId as string);
    expect((await recover(second.id, token)).status).toBe(404);
    // One character off (never the same character: a fixed replacement would be the token itself 1 time in 64).
    const wrong = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    expect((await recover(first.id, wrong)).status).toBe(404);
    expect((await recover(`cart_${uid()}`, token)).status).toBe(404);
    expect((await api(`/api/carts/${first.id}/recover`, { method: 'POST', json: {} })).status).toBe(422);
    await db().update(carts).set({ status: 'converted' }).where(eq(carts.id, first.id));
    expect((await recover(first.id, token)).status).toBe(409);
  });
});
