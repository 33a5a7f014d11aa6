import { eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { env } from 'cloudflare:workers';
import { events, webhookDeliveries, webhookEndpoints } from '../../src/db/schema';
import { ID_PREFIX, newId } from '../../src/lib/ids';
import { type D1Metrics, measuredD1 } from '../../src/d1/metrics';
import { LEFTOVER_MS } from '../../src/webhooks/publisher';
import { db, writeEvent } from '../helpers';
import { insertEndpoint, insertEvent, openChannel, recordingQueue, runQueue } from './receiver-setup';

// The store-events consumer, run on real batches with a recording DELIVERIES_QUEUE, so the test
// sees exactly which delivery messages it sends (and the real queue never posts anything).

const deliveriesOf = (eventId: string) => db().select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, eventId));

let url: string;
const endpoints: Record<string, string> = {};
beforeAll(async () => {
  url = (await openChannel()).url;
  endpoints.orders = (await insertEndpoint({ url, events: ['order.placed', 'order.cancelled'] })).id;
  endpoints.everything = (await insertEndpoint({ url, events: ['*'] })).id;
  endpoints.products = (await insertEndpoint({ url, events: ['product.created'] })).id;
  endpoints.inactive = (await insertEndpoint({ url, events: ['*'], active: false })).id;
  endpoints.disabled = (await insertEndpoint({ url, events: ['order.placed'], active: false, disabledAt: new Date().toISOString() })).id;
});

describe('fan-out (store-events)', () => {
  it('creates one pending delivery per active endpoint that wants the event, sends each, and acks', async () => {
    const event = await insertEvent('order.placed', { orderId: 'ord_x' });
    const deliveries = recordingQueue();
    const run = await runQueue('store-events', [{ body: { eventId: event.id } }], { DELIVERIES_QUEUE: deliveries.queue });
    expect(run.acked()).toBe(true);
    const rows = await deliveriesOf(event.id);
    expect(rows.map((r) => r.endpointId).sort()).toEqual([endpoints.orders, endpoints.everything].sort());
    for (const row of rows) expect(row).toMatchObject({ id: expect.stringMatching(/^whd_/), eventType: 'order.placed', status: 'pending', attempts: 0 });
    expect(deliveries.sent.sort()).toEqual(rows.map((r) => r.id).sort());
  });

  it('does not send an endpoint the events from before it was registered', async () => {
    const event = await insertEvent('order.placed', { orderId: 'ord_old' });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const late = await insertEndpoint({ url, events: ['*'] });
    const deliveries = recordingQueue();
    await runQueue('store-events', [{ body: { eventId: event.id } }], { DELIVERIES_QUEUE: deliveries.queue });
    const rows = await deliveriesOf(event.id);
    expect(rows.map((r) => r.endpointId)).not.toContain(late.id);
    expect(rows.map((r) => r.endpointId).sort()).toEqual([endpoints.orders, endpoints.everything].sort());
    await db().delete(webhookEndpoints).where(eq(webhookEndpoints.id, late.id)); // the other tests count endpoints
  });

  it('creates nothing and sends nothing for a re-published event', async () => {
    const event = await insertEvent('order.cancelled', { orderId: 'ord_y' });
    const first = recordingQueue();
    await runQueue('store-events', [{ body: { eventId: event.id } }], { DELIVERIES_QUEUE: first.queue });
    const again = recordingQueue();
    const run = await runQueue('store-events', [{ body: { eventId: event.id } }, { body: { eventId: event.id } }], { DELIVERIES_QUEUE: again.queue });
    expect(run.acked(0) && run.acked(1)).toBe(true);
    expect(again.sent).toEqual([]);
    expect((await deliveriesOf(event.id)).map((r) => r.id).sort()).toEqual(first.sent.sort());
    expect(first.sent).toHaveLength(2);
  });

  it('sends each delivery once even when the same event comes twice in one batch', async () => {
    const event = await insertEvent('product.created', { productId: 'prod_z' });
    const deliveries = recordingQueue();
    const run = await runQueue('store-events', [{ body: { eventId: event.id } }, { body: { eventId: event.id } }], { DELIVERIES_QUEUE: deliveries.queue });
    expect(run.result.explicitAcks).toHaveLength(2);
    const rows = await deliveriesOf(event.id);
    expect(rows.map((r) => r.endpointId).sort()).toEqual([endpoints.everything, endpoints.products].sort());
    expect(deliveries.sent.sort()).toEqual(rows.map((r) => r.id).sort());
  });

  it('retries a message whose deliveries could not be sent, and the retry sends them (nothing lost, nothing doubled)', async () => {
    const event = await insertEvent('order.placed', { orderId: 'ord_retry' });
    const broken = recordingQueue({ failSends: 1 });
    const failed = await runQueue('store-events', [{ body: { eventId: event.id } }], { DELIVERIES_QUEUE: broken.queue });
    expect(failed.retried()).toBe(true);
    expect(failed.acked()).toBe(false);
    const rows = await deliveriesOf(event.id);
    expect(rows).toHaveLength(2);
    const working = recordingQueue();
    const retry = await runQueue('store-events', [{ body: { eventId: event.id }, attempts: 2 }], { DELIVERIES_QUEUE: working.queue });
    expect(retry.acked()).toBe(true);
    expect(working.sent.sort()).toEqual(rows.map((r) => r.id).sort());
    expect(await deliveriesOf(event.id)).toHaveLength(2);
  });

  it('never broadcasts a ping, and acks events nobody wants or that do not exist', async () => {
    const ping = await insertEvent('ping', {});
    const unwanted = await insertEvent('inventory.low', { variantId: 'var_1' });
    const deliveries = recordingQueue();
    const run = await runQueue('store-events', [{ body: { eventId: ping.id } }, { body: { eventId: 'evt_missing' } }, { body: {} }], { DELIVERIES_QUEUE: deliveries.queue });
    expect(run.result.explicitAcks).toHaveLength(3);
    expect(await deliveriesOf(ping.id)).toEqual([]);
    expect(deliveries.sent).toEqual([]);
    // inventory.low reaches only the '*' endpoint.
    const wildcard = await runQueue('store-events', [{ body: { eventId: unwanted.id } }], { DELIVERIES_QUEUE: deliveries.queue });
    expect(wildcard.acked()).toBe(true);
    expect((await deliveriesOf(unwanted.id)).map((r) => r.endpointId)).toEqual([endpoints.everything]);
  });

  it('creates deliveries for more endpoints than one insert statement can bind', async () => {
    const many = [];
    for (let i = 0; i < 30; i++) many.push(insertEndpoint({ url, events: ['customer.registered'] }));
    await Promise.all(many);
    const event = await insertEvent('customer.registered', { customerId: 'user_many' });
    const deliveries = recordingQueue();
    const run = await runQueue('store-events', [{ body: { eventId: event.id } }], { DELIVERIES_QUEUE: deliveries.queue });
    expect(run.acked()).toBe(true);
    expect(await deliveriesOf(event.id)).toHaveLength(31); // the 30 and '*'
    expect(new Set(deliveries.sent).size).toBe(31);
  });

  it('marks the events of its batch published, and skips ids whose insert never committed without error or retry', async () => {
    const event = await writeEvent('order.placed', { orderId: 'ord_marked' });
    const neverCommitted = newId(ID_PREFIX.event); // as a conditional inventory.low that did not apply
    const deliveries = recordingQueue();
    const run = await runQueue('store-events', [{ body: { eventId: neverCommitted } }, { body: { eventId: event.id } }], { DELIVERIES_QUEUE: deliveries.queue });
    expect(run.acked(0) && run.acked(1)).toBe(true);
    expect(run.retried(0) || run.retried(1)).toBe(false);
    expect(run.result.retryBatch.retry).toBe(false);
    expect(run.result.outcome).toBe('ok');
    expect((await db().select({ at: events.publishedAt }).from(events).where(eq(events.id, event.id)))[0]!.at).not.toBeNull();
    expect(await deliveriesOf(neverCommitted)).toEqual([]);
    expect((await deliveriesOf(event.id)).map((r) => r.endpointId).sort()).toEqual([endpoints.orders, endpoints.everything].sort());
  });

  it('reads and marks a batch in one D1 round trip: ids that never committed cost nothing more', async () => {
    const metrics: D1Metrics = { rowsRead: 0, roundTrips: 0, unknown: 0 };
    const deliveries = recordingQueue();
    const bodies = Array.from({ length: 5 }, () => ({ body: { eventId: newId(ID_PREFIX.event) } }));
    const run = await runQueue('store-events', bodies, { DB: measuredD1(env.DB, metrics), DELIVERIES_QUEUE: deliveries.queue });
    expect(run.result.explicitAcks).toHaveLength(5);
    expect(metrics.roundTrips).toBe(1);
    expect(deliveries.sent).toEqual([]);
  });

  it('publishes leftovers (unpublished past LEFTOVER_MS) once per batch it takes, so a request that died before sending loses nothing', async () => {
    const leftover = await writeEvent('product.created', { productId: 'prod_orphan' }, new Date(Date.now() - LEFTOVER_MS - 1_000));
    const fresh = await writeEvent('product.created', { productId: 'prod_fresh' });
    const taken = await writeEvent('product.created', { productId: 'prod_taken' });
    const published = async () =>
      (
        await db()
          .select({ id: events.id })
          .from(events)
          .where(inArray(events.id, [leftover.id, fresh.id, taken.id]))
      ).length;
    expect(await published()).toBe(3);
    const sweep = recordingQueue();
    await runQueue('store-events', [{ body: { eventId: taken.id } }], { DELIVERIES_QUEUE: recordingQueue().queue, EVENTS_QUEUE: sweep.queue });
    // The leftover, not the fresh event its request is about to send, nor the one this batch holds.
    expect(sweep.sent).toEqual([leftover.id]);
    const state = async (id: string) => (await db().select({ at: events.publishedAt }).from(events).where(eq(events.id, id)))[0]!.at;
    expect(await state(leftover.id)).not.toBeNull();
    expect(await state(taken.id)).not.toBeNull();
    expect(await state(fresh.id)).toBeNull();
    const again = recordingQueue();
    await runQueue('store-events', [{ body: { eventId: taken.id } }], { DELIVERIES_QUEUE: recordingQueue().queue, EVENTS_QUEUE: again.queue });
    expect(again.sent).toEqual([]);
  });
});
