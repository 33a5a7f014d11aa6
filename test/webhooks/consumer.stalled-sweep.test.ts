import { inArray } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { notifications, webhookDeliveries } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { forgetIsolateState } from '../../src/lib/isolate-state';
import { SWEEP_EVERY_MS, sweepDue } from '../../src/queues/stalled-sweep';
import { db } from '../helpers';
import { insertEndpoint, recordingQueue, runQueue } from './receiver-setup';

// A crash between a write and its queue send leaves a delivery `pending` (or a notification `queued`)
// with no message. The minute cron sends them again in production; the store-events consumer does
// it too, at most once a minute per isolate, so `wrangler dev` (no cron) heals as well.

const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

async function stalledRows(minutes: number) {
  const endpoint = await insertEndpoint({ url: 'http://127.0.0.1:9/hook' });
  const at = ago(minutes);
  const delivery = { id: newId('whd'), endpointId: endpoint.id, eventId: newId('evt'), eventType: 'order.placed', status: 'pending' as const, createdAt: at, updatedAt: at };
  const notification = {
    id: newId('ntf'),
    channel: 'email' as const,
    recipient: 'sweep@example.com',
    template: 'order_confirmation',
    body: 'Thanks',
    status: 'queued' as const,
    attempts: 0,
    createdAt: at,
    updatedAt: at,
  };
  await db().insert(webhookDeliveries).values(delivery);
  await db().insert(notifications).values(notification);
  return { delivery, notification };
}

/** A store-events batch whose event never committed: acknowledged and skipped, as requests send such ids. */
async function wakeConsumer() {
  const deliveries = recordingQueue();
  const notificationsQueue = recordingQueue();
  const run = await runQueue('store-events', [{ body: { eventId: newId('evt') } }], { DELIVERIES_QUEUE: deliveries.queue, NOTIFICATIONS_QUEUE: notificationsQueue.queue });
  expect(run.acked()).toBe(true);
  return { deliveries: deliveries.sent, notifications: notificationsQueue.sent };
}

it('re-queues stalled deliveries and notifications when a new event wakes the consumer, at most once a minute', async () => {
  const first = await stalledRows(5);
  const fresh = await stalledRows(0.5);
  // A batch left over from an earlier test file may have woken this runtime's consumer since it started.
  forgetIsolateState();
  const sent = await wakeConsumer();
  expect(sent.deliveries).toContain(first.delivery.id);
  expect(sent.notifications).toContain(first.notification.id);
  expect(sent.deliveries).not.toContain(fresh.delivery.id);
  expect(sent.notifications).not.toContain(fresh.notification.id);
  const touched = await db()
    .select()
    .from(webhookDeliveries)
    .where(inArray(webhookDeliveries.id, [first.delivery.id]));
  expect(Date.parse(touched[0]!.updatedAt)).toBeGreaterThan(Date.now() - 60_000);

  // Within the minute the next batch does not look again.
  const later = await stalledRows(5);
  const again = await wakeConsumer();
  expect(again.deliveries).not.toContain(later.delivery.id);
  expect(again.notifications).not.toContain(later.notification.id);
});

it('is due once per minute per isolate', () => {
  const t = 10 * SWEEP_EVERY_MS + Date.now();
  expect(sweepDue(t)).toBe(true);
  expect(sweepDue(t + 1)).toBe(false);
  expect(sweepDue(t + SWEEP_EVERY_MS - 1)).toBe(false);
  expect(sweepDue(t + SWEEP_EVERY_MS)).toBe(true);
});
