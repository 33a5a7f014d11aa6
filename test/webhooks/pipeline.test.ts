import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { events, webhookDeliveries } from '../../src/db/schema';
import { outboxEvent } from '../../src/lib/events';
import { publishPendingEvents } from '../../src/webhooks/publisher';
import { db } from '../helpers';
import { closedUrl, insertEndpoint, openChannel } from './receiver-setup';

// The publisher, the real queues and both consumers together, without going through the API.

it('delivers an event published twice (a request and the cron racing) exactly once', { timeout: 60_000 }, async () => {
  const receiver = await openChannel();
  await insertEndpoint({ url: receiver.url, events: ['customer.registered'] });
  const [event] = await outboxEvent(db(), 'customer.registered', { customerId: 'user_twice', email: 'twice@example.test', name: 'Twice' }).returning();
  expect(await publishPendingEvents(env)).toBeGreaterThanOrEqual(1);
  // As if the publish had not been recorded: the next run sends the event again.
  await db().update(events).set({ publishedAt: null }).where(eq(events.id, event!.id));
  expect(await publishPendingEvents(env)).toBeGreaterThanOrEqual(1);

  await expect.poll(async () => (await receiver.requests()).length, { timeout: 30_000, interval: 250 }).toBe(1);
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const requests = await receiver.requests();
  expect(requests).toHaveLength(1);
  expect(JSON.parse(requests[0]!.body)).toMatchObject({ id: event!.id, event: 'customer.registered' });
  expect(await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, event!.id))).toHaveLength(1);
});

it('does not hold back a healthy endpoint behind one that cannot be reached', { timeout: 60_000 }, async () => {
  const healthy = await openChannel();
  const broken = await insertEndpoint({ url: closedUrl(), events: ['product.created'] });
  await insertEndpoint({ url: healthy.url, events: ['product.created'] });
  const [event] = await outboxEvent(db(), 'product.created', { productId: 'prod_both' }).returning();
  await publishPendingEvents(env);

  await expect.poll(async () => (await healthy.requests()).length, { timeout: 30_000, interval: 250 }).toBe(1);
  await expect
    .poll(async () => (await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, broken.id)))[0]?.status, { timeout: 30_000, interval: 250 })
    .toBe('retrying');
  const [failing] = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, broken.id));
  expect(failing).toMatchObject({ eventId: event!.id, lastError: expect.stringMatching(/^network error/), nextRetryAt: expect.any(String) });
});

it("publishes a write request's own events and the leftovers, not other requests' fresh ones", async () => {
  const { LEFTOVER_MS } = await import('../../src/webhooks/publisher');
  const now = new Date();
  const [mine] = await outboxEvent(db(), 'product.updated', { productId: 'prod_mine' }, now).returning();
  const [theirs] = await outboxEvent(db(), 'product.updated', { productId: 'prod_theirs' }, now).returning();
  const [leftover] = await outboxEvent(db(), 'product.updated', { productId: 'prod_left' }, new Date(now.getTime() - LEFTOVER_MS - 1000)).returning();
  await publishPendingEvents(env, now, [mine!.id]);
  const published = async (id: string) => (await db().select({ at: events.publishedAt }).from(events).where(eq(events.id, id)))[0]!.at;
  expect(await published(mine!.id)).not.toBeNull();
  expect(await published(leftover!.id)).not.toBeNull();
  expect(await published(theirs!.id)).toBeNull();
  // The cron (no `own`) takes everything still pending.
  await publishPendingEvents(env, now);
  expect(await published(theirs!.id)).not.toBeNull();
});
