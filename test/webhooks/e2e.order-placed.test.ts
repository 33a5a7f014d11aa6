import { asc, eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { webhookAttempts, webhookDeliveries } from '../../src/db/schema';
import { adminKey, api, createProduct, db, insertUser } from '../helpers';
import { expectedStandardSignature, expectedStoreSignature, insertEndpoint, openChannel, type ReceivedRequest } from './receiver-setup';

// The whole pipeline with nothing stubbed: an order placed through the API commits order.placed to
// the outbox, the request's publisher sends it to the real store-events queue, the fan-out creates
// the delivery, and the delivery consumer POSTs it to a Node HTTP server on 127.0.0.1 that fails
// twice and then answers 200 (WEBHOOK_RETRY_BASE_SECONDS is 1 in tests, so retries come in seconds).

const successesPerDelivery = (requests: ReceivedRequest[]) => {
  const counts = new Map<string, number>();
  for (const r of requests) if (r.answered === 200) counts.set(r.headers['x-store-delivery']!, (counts.get(r.headers['x-store-delivery']!) ?? 0) + 1);
  return Object.fromEntries(counts);
};

it('delivers a signed order.placed to a real receiver after two failures, exactly once', { timeout: 90_000 }, async () => {
  const receiver = await openChannel({ failFirst: 2, failStatus: 500 });
  const endpoint = await insertEndpoint({ url: receiver.url, events: ['order.placed'] });
  const key = await adminKey();
  const product = await createProduct(key, { price: 19.99, stock: 5 });
  const { user } = await insertUser();

  const placed = await api('/api/orders', { method: 'POST', key, json: { customerId: user.id, lines: [{ variantId: product.variants[0].id, quantity: 2 }] } });
  expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  const order = placed.body.data;

  await expect.poll(async () => (await receiver.requests()).filter((r) => r.answered === 200).length, { timeout: 60_000, interval: 250 }).toBe(1);
  const requests = await receiver.requests();
  // Only order.placed: the product.created of the setup is not something this endpoint wants.
  expect(requests.map((r) => [r.headers['x-store-event'], r.answered])).toEqual([
    ['order.placed', 500],
    ['order.placed', 500],
    ['order.placed', 200],
  ]);

  const deliveryId = requests[0]!.headers['x-store-delivery']!;
  expect(deliveryId).toMatch(/^whd_/);
  expect(successesPerDelivery(requests)).toEqual({ [deliveryId]: 1 });
  // Every retry is the same delivery with the same bytes, each correctly signed.
  expect(new Set(requests.map((r) => r.headers['x-store-delivery']))).toEqual(new Set([deliveryId]));
  expect(new Set(requests.map((r) => r.body)).size).toBe(1);
  for (const r of requests) {
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers['x-store-signature']).toBe(await expectedStoreSignature(endpoint.secret, r.body));
    expect(r.headers['webhook-signature']).toBe(await expectedStandardSignature(endpoint.secret, deliveryId, r.headers['webhook-timestamp']!, r.body));
  }
  const envelope = JSON.parse(requests[2]!.body);
  expect(envelope).toEqual({
    id: expect.stringMatching(/^evt_/),
    event: 'order.placed',
    data: expect.objectContaining({ orderId: order.id, customerId: user.id, total: 39.98, currency: order.currency, status: 'pending' }),
    timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    position: expect.any(Number),
    resourceId: order.id,
    sequence: 1,
  });
  // Retries waited for their backoff (at least a second each with a base of 1 s).
  const times = requests.map((r) => Date.parse(r.receivedAt));
  expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(900);
  expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(900);

  const [delivery] = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId));
  expect(delivery).toMatchObject({
    endpointId: endpoint.id,
    eventId: envelope.id,
    eventType: 'order.placed',
    status: 'succeeded',
    attempts: 3,
    lastStatusCode: 200,
    nextRetryAt: null,
  });
  const attempts = await db().select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, deliveryId)).orderBy(asc(webhookAttempts.attempt));
  expect(attempts.map((a) => [a.attempt, a.statusCode])).toEqual([
    [1, 500],
    [2, 500],
    [3, 200],
  ]);

  // Nothing more arrives: no duplicate from a re-publish (the cron or a later write) or a late retry.
  const more = await api('/api/products', { method: 'POST', key, json: { name: 'After the order', price: 1, status: 'active' } });
  expect(more.status).toBe(201);
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  expect(await receiver.requests()).toHaveLength(3);
});
