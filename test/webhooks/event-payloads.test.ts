import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { carts, events } from '../../src/db/schema';
import { type EventType, PING_EVENT } from '../../src/lib/events';
import { EVENT_TYPES, eventKinds } from '../../src/modules/registry';
import { runScheduled } from '../../src/scheduled';
import { PING_KIND } from '../../src/webhooks/ping';
import { eventEnvelopeSchema } from '../../src/docs/openapi-webhooks';
import { eventPayload } from '../../src/webhooks/payload';
import { adminKey, api, createProduct, db, insertUser, TEST_PASSWORD, uid } from '../helpers';
import { confirmIntent, deliver, signedEvent } from '../payments/stripe-fake';
import { openChannel } from './receiver-setup';

// Every event kind, driven through the flow that really emits it (API requests, the Stripe webhook,
// the minute cron), and every stored event's data parsed against its kind's schema, strictly: an
// unknown key anywhere, a missing one or a wrong type fails. This is what holds the events written by
// SQL (`order.placed`'s number, the `inventory.low` trigger) and the typed-only outboxEvent calls to
// the shapes the OpenAPI document's `webhooks` promises. Storage is this file's own: the table holds
// only what these flows wrote.

/** Asserts a 2xx and returns the answer's data. */
async function ok(path: string, init: Parameters<typeof api>[1]) {
  const res = await api(path, init);
  expect(res.status, `${init?.method ?? 'GET'} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body?.data;
}

it('emits every event kind with data that parses strictly against its schema, in an envelope that matches its own', { timeout: 120_000 }, async () => {
  const key = await adminKey();
  const post = (path: string, json: unknown, k = key) => ok(path, { method: 'POST', key: k, json });
  const patch = (path: string, json: unknown) => ok(path, { method: 'PATCH', key, json });

  // Catalogue: product.created, .updated, .deleted.
  const gone = await createProduct(key);
  await patch(`/api/products/${gone.id}`, { name: `Renamed ${uid()}` });
  await ok(`/api/products/${gone.id}`, { method: 'DELETE', key });

  // customer.registered, by sign-up.
  await post('/api/auth/register', { email: `events-${uid()}@example.test`, password: TEST_PASSWORD, name: 'Ada Lovelace' }, undefined);

  // order.placed (numbered by SQL), inventory.low (the trigger: 6 -> 2 crosses 3), order.updated and
  // order.cancelled by cancelling it.
  const { user, token } = await insertUser();
  const low = await createProduct(key, { price: 12.5, variants: [{ stock: 6, lowStockThreshold: 3 }] });
  const cancelled = await post('/api/orders', { customerId: user.id, lines: [{ variantId: low.variants[0].id, quantity: 4 }] });
  await post(`/api/orders/${cancelled.id}/cancel`, {});

  // payment.failed, then payment.completed (order.updated: processing), payment.refunded and shipment.shipped.
  const stocked = await createProduct(key, { price: 20, stock: 50 });
  const order = await post('/api/orders', { customerId: user.id, lines: [{ variantId: stocked.variants[0].id, quantity: 2 }] });
  expect(await post(`/api/orders/${order.id}/payments`, { provider: 'manual', details: { simulateFailure: true } })).toMatchObject({ status: 'failed' });
  const payment = await post(`/api/orders/${order.id}/payments`, { provider: 'manual' });
  await post(`/api/orders/${order.id}/shipments`, { status: 'shipped', carrier: 'UPS', trackingNumber: '1Z999AA10123456784', trackingUrl: 'https://track.example/1Z' });
  await post(`/api/payments/${payment.id}/refunds`, { amount: 5, reason: 'scratched' });
  // return.requested, return.approved and return.received: staff take one unit back and restock it.
  const ret = await post(`/api/orders/${order.id}/returns`, { lines: [{ orderLineId: order.lines[0].id, quantity: 1, reason: 'damaged' }], note: 'Scratched' });
  await patch(`/api/returns/${ret.id}`, { status: 'approved' });
  await patch(`/api/returns/${ret.id}`, { status: 'received', restock: [{ returnLineId: ret.lines[0].id, quantity: 1 }] });
  // return.rejected: a second return of the other unit, turned down.
  const turnedDown = await post(`/api/orders/${order.id}/returns`, { lines: [{ orderLineId: order.lines[0].id, quantity: 1, reason: 'changed_mind' }] });
  await patch(`/api/returns/${turnedDown.id}`, { status: 'rejected', resolution: 'Worn' });

  // store_credit.changed: a refund by line to store credit, then spending it on another order.
  const orderLine = (await ok(`/api/orders/${order.id}`, { key })).lines[0];
  await post(`/api/payments/${payment.id}/refunds`, { lines: [{ orderLineId: orderLine.id, quantity: 1 }], destination: 'store_credit' });
  const spending = await post('/api/orders', { customerId: user.id, lines: [{ variantId: stocked.variants[0].id, quantity: 1 }] });
  await post(`/api/orders/${spending.id}/payments`, { provider: 'store_credit', amount: 5 }, token);

  // payment.disputed: a Stripe payment, completed and then disputed by Stripe's signed webhooks.
  const disputedOrder = await post('/api/orders', { customerId: user.id, lines: [{ variantId: stocked.variants[0].id, quantity: 1 }] });
  const stripe = await post(`/api/orders/${disputedOrder.id}/payments`, { provider: 'stripe' }, token);
  expect((await deliver(await signedEvent('payment_intent.succeeded', await confirmIntent(stripe.providerReference)))).status).toBe(200);
  const dispute = { id: `dp_${uid()}`, object: 'dispute', amount: 2000, currency: 'usd', payment_intent: stripe.providerReference, reason: 'fraudulent', status: 'needs_response' };
  expect((await deliver(await signedEvent('charge.dispute.created', dispute))).status).toBe(200);

  // Content: page.published, page.updated, page.unpublished.
  const page = await post('/api/pages', { title: `About ${uid()}`, body: '# About us', status: 'published' });
  await patch(`/api/pages/${page.id}`, { title: `About us ${uid()}` });
  await patch(`/api/pages/${page.id}`, { status: 'draft' });

  // cart.abandoned, by the minute cron: a guest cart with a line and an email, idle for two hours.
  const cart = await post('/api/carts', { email: `idle-${uid()}@example.test` }, undefined);
  await ok(`/api/carts/${cart.id}/lines`, { method: 'POST', json: { variantId: stocked.variants[0].id, quantity: 1 }, headers: { 'X-Cart-Token': cart.token } });
  await db()
    .update(carts)
    .set({ updatedAt: new Date(Date.now() - 2 * 3_600_000).toISOString() })
    .where(eq(carts.id, cart.id));
  expect(await runScheduled(env, '* * * * *')).toMatchObject({ cartsAbandoned: 1 });

  // gift_card.issued, by staff issuing a card.
  await post('/api/gift-cards', { amount: 25, currency: 'USD', recipientEmail: `gift-${uid()}@example.test`, expiresAt: '2099-01-01T00:00:00Z' });

  // ping: POST /api/webhooks/{id}/test to an endpoint of a loopback receiver.
  const receiver = await openChannel();
  const endpoint = await post('/api/webhooks', { url: receiver.url, events: ['order.placed'] });
  await post(`/api/webhooks/${endpoint.id}/test`, {});

  const rows = await db().select().from(events);
  const kinds = await eventKinds();
  const seen = new Set<string>();
  for (const row of rows) {
    const kind = row.type === PING_EVENT ? PING_KIND : kinds[row.type as EventType];
    expect(kind, `an event of unknown kind ${row.type}`).toBeDefined();
    const parsed = kind.data.strict().safeParse(row.data);
    expect(parsed.error?.issues, `${row.type} ${JSON.stringify(row.data)}`).toBeUndefined();
    // Nested objects (the product, a shipment's lines) are not strict themselves: zod drops what they do
    // not declare, so the parse must give back exactly what was stored.
    expect(parsed.data, row.type).toEqual(row.data);
    const envelope = JSON.parse(eventPayload(row));
    expect(
      eventEnvelopeSchema(row.type as EventType | typeof PING_EVENT, kinds)
        .strict()
        .safeParse(envelope).error?.issues,
      row.type,
    ).toBeUndefined();
    seen.add(row.type);
  }
  expect([...seen].sort()).toEqual([...EVENT_TYPES, PING_EVENT].sort());
});
