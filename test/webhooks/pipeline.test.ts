import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { events, webhookDeliveries } from '../../src/db/schema';
import { sendEvents } from '../../src/lib/queue-send';
import { LEFTOVER_MS, publishLeftoverEvents } from '../../src/webhooks/publisher';
import { db, writeEvent } from '../helpers';
import { closedUrl, insertEndpoint, openChannel, recordingQueue } from './receiver-setup';

// The publisher, the real queues and both consumers together, without going through the API.

const publishedAt = async (id: string) => (await db().select({ at: events.publishedAt }).from(events).where(eq(events.id, id)))[0]!.at;
/** Created longer than LEFTOVER_MS ago, as if its request had died between commit and send. */
const longAgo = () => new Date(Date.now() - LEFTOVER_MS - 5_000);

it('delivers an event sent by its request and swept up again by the cron exactly once', { timeout: 60_000 }, async () => {
  const receiver = await openChannel();
  await insertEndpoint({ url: receiver.url, events: ['customer.registered'], createdAt: longAgo().toISOString() });
  const event = await writeEvent('customer.registered', { customerId: 'user_twice', email: 'twice@example.test', name: 'Twice' }, longAgo());
  // Its request sent it, and the cron swept it up before the consumer had marked it: sent twice.
  await sendEvents(env, [event.id]);
  expect(await publishLeftoverEvents(env)).toBeGreaterThanOrEqual(1);
  // As if that mark had been lost too: the next sweep sends it a third time.
  await db().update(events).set({ publishedAt: null }).where(eq(events.id, event.id));
  expect(await publishLeftoverEvents(env)).toBeGreaterThanOrEqual(1);

  await expect.poll(async () => (await receiver.requests()).length, { timeout: 30_000, interval: 250 }).toBe(1);
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const requests = await receiver.requests();
  expect(requests).toHaveLength(1);
  expect(JSON.parse(requests[0]!.body)).toMatchObject({ id: event.id, event: 'customer.registered' });
  expect(await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, event.id))).toHaveLength(1);
});

it('does not hold back a healthy endpoint behind one that cannot be reached', { timeout: 60_000 }, async () => {
  const healthy = await openChannel();
  const broken = await insertEndpoint({ url: closedUrl(), events: ['product.created'] });
  await insertEndpoint({ url: healthy.url, events: ['product.created'] });
  const event = await writeEvent('product.created', { productId: 'prod_both' });
  await sendEvents(env, [event.id]);

  await expect.poll(async () => (await healthy.requests()).length, { timeout: 30_000, interval: 250 }).toBe(1);
  await expect
    .poll(async () => (await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, broken.id)))[0]?.status, { timeout: 30_000, interval: 250 })
    .toBe('retrying');
  const [failing] = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, broken.id));
  expect(failing).toMatchObject({ eventId: event.id, lastError: expect.stringMatching(/^network error/), nextRetryAt: expect.any(String) });
  // The consumer marked what it received as published; nobody else had to.
  expect(await publishedAt(event.id)).not.toBeNull();
});

it('the cron sweeps up only events left unpublished past LEFTOVER_MS, not fresh ones the queue still holds', async () => {
  const fresh = await writeEvent('product.updated', { productId: 'prod_fresh' });
  const leftover = await writeEvent('product.updated', { productId: 'prod_left' }, longAgo());
  const first = recordingQueue();
  expect(await publishLeftoverEvents({ DB: env.DB, EVENTS_QUEUE: first.queue })).toBe(first.sent.length);
  expect(first.sent).toContain(leftover.id);
  expect(first.sent).not.toContain(fresh.id);
  expect(await publishedAt(leftover.id)).not.toBeNull();
  expect(await publishedAt(fresh.id)).toBeNull();
  // Once published it is not swept again; the fresh one is, once it is old enough.
  const later = recordingQueue();
  await publishLeftoverEvents({ DB: env.DB, EVENTS_QUEUE: later.queue }, new Date(Date.now() + LEFTOVER_MS + 1_000));
  expect(later.sent).toEqual([fresh.id]);
});

it('an event whose request never sent it is delivered once the consumer takes its next batch, with no cron', { timeout: 60_000 }, async () => {
  const receiver = await openChannel();
  await insertEndpoint({ url: receiver.url, events: ['order.cancelled'], createdAt: longAgo().toISOString() });
  const orphan = await writeEvent('order.cancelled', { orderId: 'ord_orphan' }, longAgo());
  // Another request's event reaches the consumer; that batch publishes the leftover on its way.
  const other = await writeEvent('order.updated', { orderId: 'ord_other' });
  await sendEvents(env, [other.id]);

  await expect.poll(async () => (await receiver.requests()).length, { timeout: 30_000, interval: 250 }).toBe(1);
  expect(JSON.parse((await receiver.requests())[0]!.body)).toMatchObject({ id: orphan.id, event: 'order.cancelled' });
  expect(await publishedAt(orphan.id)).not.toBeNull();
  expect(await publishedAt(other.id)).not.toBeNull();
});
