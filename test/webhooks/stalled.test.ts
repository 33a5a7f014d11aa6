import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { webhookDeliveries } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { requeueStalledDeliveries } from '../../src/webhooks/stalled';
import { db } from '../helpers';
import { insertEndpoint, insertEvent, recordingQueue } from './receiver-setup';

it('sends again deliveries still pending minutes later, once, and leaves fresh and finished ones alone', async () => {
  const endpoint = await insertEndpoint({ url: 'http://127.0.0.1:9/hook' });
  const event = await insertEvent('order.placed', { orderId: 'ord_stalled' });
  const now = new Date();
  const ago = (minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();
  const delivery = (status: 'pending' | 'succeeded', updatedAt: string) => ({
    id: newId('whd'),
    endpointId: endpoint.id,
    eventId: newId('evt'),
    eventType: event.type,
    status,
    createdAt: updatedAt,
    updatedAt,
  });
  const stalled = delivery('pending', ago(5));
  const fresh = delivery('pending', ago(0.5));
  const done = delivery('succeeded', ago(10));
  await db().insert(webhookDeliveries).values([stalled, fresh, done]);

  const first = recordingQueue();
  expect(await requeueStalledDeliveries({ DB: env.DB, DELIVERIES_QUEUE: first.queue }, now)).toBe(1);
  expect(first.sent).toEqual([stalled.id]);
  const [touched] = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.id, stalled.id));
  expect(touched!.updatedAt).toBe(now.toISOString());

  const second = recordingQueue();
  expect(await requeueStalledDeliveries({ DB: env.DB, DELIVERIES_QUEUE: second.queue }, new Date(now.getTime() + 60_000))).toBe(0);
  expect(second.sent).toEqual([]);
});
