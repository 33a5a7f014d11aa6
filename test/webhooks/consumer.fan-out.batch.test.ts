import { env } from 'cloudflare:workers';
import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { notifications, webhookDeliveries } from '../../src/db/schema';
import { ID_PREFIX, newId } from '../../src/lib/ids';
import { type D1Metrics, measuredD1 } from '../../src/d1/metrics';
import { placeTestOrder } from '../commerce/order-fixtures';
import { adminKey, db } from '../helpers';
import { insertEndpoint, insertEvent, openChannel, recordingQueue, runQueue } from './receiver-setup';

// The store-events consumer works a whole batch at once: one D1 batch receives the events with the
// endpoints and templates, one reads the notification contexts of all of them, one writes every
// delivery and notification. D1 calls are counted through a wrapper of the binding handed to it.

function counted() {
  const metrics: D1Metrics = { rowsRead: 0, roundTrips: 0, unknown: 0 };
  return { metrics, DB: measuredD1(env.DB, metrics) };
}

/** Guest orders, each with its order.placed event (already marked published, so only the test sends it). */
async function placedEvents(count: number, key: string) {
  const placed = [];
  for (let i = 0; i < count; i++) {
    const { order } = await placeTestOrder({ key, price: 7.5, quantity: 2 });
    placed.push({ order, event: await insertEvent('order.placed', { orderId: order.id }) });
  }
  return placed;
}

const deliveriesOf = (eventIds: string[]) => db().select().from(webhookDeliveries).where(inArray(webhookDeliveries.eventId, eventIds));
const notificationsOf = (eventIds: string[]) => db().select().from(notifications).where(inArray(notifications.eventId, eventIds));

describe('fan-out, a batch at a time', () => {
  it('costs three D1 round trips whatever the batch holds: receive, notification contexts, write', async () => {
    const key = await adminKey();
    const endpoint = await insertEndpoint({ url: (await openChannel()).url, events: ['order.placed'], createdAt: new Date(Date.now() - 60_000).toISOString() });
    for (const size of [1, 6]) {
      const placed = await placedEvents(size, key);
      const eventIds = placed.map((p) => p.event.id);
      const deliveries = recordingQueue();
      const messages = recordingQueue();
      const { metrics, DB } = counted();
      // With as many ids whose insert never committed (as every order's conditional inventory.low).
      const bodies = [...eventIds, ...eventIds.map(() => newId(ID_PREFIX.event))].map((eventId) => ({ body: { eventId } }));
      const run = await runQueue('store-events', bodies, { DB, DELIVERIES_QUEUE: deliveries.queue, NOTIFICATIONS_QUEUE: messages.queue });
      expect(run.result.explicitAcks).toHaveLength(2 * size);
      expect(metrics.roundTrips, `a batch of ${size} events`).toBe(3);

      const rows = await deliveriesOf(eventIds);
      expect(rows.map((r) => r.eventId).sort()).toEqual([...eventIds].sort());
      for (const row of rows) expect(row).toMatchObject({ endpointId: endpoint.id, eventType: 'order.placed', status: 'pending', attempts: 0 });
      expect(deliveries.sent.sort()).toEqual(rows.map((r) => r.id).sort());

      // The order confirmation of each order, to its guest, rendered from its own order.
      const sent = await notificationsOf(eventIds);
      expect(sent).toHaveLength(size);
      for (const { order, event } of placed) {
        const message = sent.find((n) => n.eventId === event.id)!;
        expect(message).toMatchObject({ template: 'order_confirmation', channel: 'email', recipient: order.email, status: 'queued' });
        expect(message.subject).toContain(`order #${order.number} `);
        expect(message.body).toContain(`Total: 15.00 ${order.currency}`);
      }
      expect(messages.sent.sort()).toEqual(sent.map((n) => n.id).sort());
    }
  });

  it('costs two when no event of the batch has a template, and a retried batch sends again only what was never tried', async () => {
    const endpoint = await insertEndpoint({ url: (await openChannel()).url, events: ['product.updated'], createdAt: new Date(Date.now() - 60_000).toISOString() });
    const events = [
      await insertEvent('product.updated', { productId: 'prod_a' }),
      await insertEvent('product.updated', { productId: 'prod_b' }),
      await insertEvent('product.updated', { productId: 'prod_c' }),
    ];
    const ids = events.map((e) => e.id);
    const first = counted();
    const lost = recordingQueue({ failSends: 1 });
    const failed = await runQueue(
      'store-events',
      ids.map((eventId) => ({ body: { eventId } })),
      { DB: first.DB, DELIVERIES_QUEUE: lost.queue },
    );
    expect(first.metrics.roundTrips).toBe(2);
    // The send failed: every message of the batch that had deliveries to send is retried.
    expect([0, 1, 2].map((i) => failed.retried(i))).toEqual([true, true, true]);
    const rows = await deliveriesOf(ids);
    expect(rows).toHaveLength(3);
    // One of them was delivered meanwhile (a stalled sweep); the retry sends the other two only.
    const tried = rows.find((r) => r.eventId === ids[0])!;
    await db()
      .update(webhookDeliveries)
      .set({ status: 'succeeded', attempts: 1 })
      .where(and(eq(webhookDeliveries.id, tried.id), eq(webhookDeliveries.endpointId, endpoint.id)));

    const again = counted();
    const resent = recordingQueue();
    const retry = await runQueue(
      'store-events',
      ids.map((eventId) => ({ body: { eventId }, attempts: 2 })),
      { DB: again.DB, DELIVERIES_QUEUE: resent.queue },
    );
    expect(retry.result.explicitAcks).toHaveLength(3);
    expect(again.metrics.roundTrips).toBe(2);
    expect(resent.sent.sort()).toEqual(
      rows
        .filter((r) => r.id !== tried.id)
        .map((r) => r.id)
        .sort(),
    );
    expect(await deliveriesOf(ids)).toHaveLength(3);
  });
});
