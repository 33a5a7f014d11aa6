import { env } from 'cloudflare:workers';
import { asc, eq, inArray } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { notifications, storeSettings, webhookAttempts, webhookDeliveries, webhookEndpoints, type WebhookEndpointRow } from '../../src/db/schema';
import { ID_PREFIX, newId } from '../../src/lib/ids';
import { type D1Metrics, measuredD1 } from '../../src/d1/metrics';
import { db } from '../helpers';
import { insertEndpoint, insertEvent, openChannel, runQueue } from './receiver-setup';

// The webhook-deliveries consumer works a whole batch at once (one D1 read, the POSTs, one D1
// write), yet settles each message on its own. D1 calls are counted through a wrapper of the
// binding handed to the consumer.

function counted() {
  const metrics: D1Metrics = { rowsRead: 0, roundTrips: 0, unknown: 0 };
  return { metrics, DB: measuredD1(env.DB, metrics) };
}

async function pendingDelivery(endpoint: WebhookEndpointRow) {
  const event = await insertEvent('order.placed', { orderId: `ord_${crypto.randomUUID()}` });
  const [delivery] = await db()
    .insert(webhookDeliveries)
    .values({ id: newId(ID_PREFIX.webhookDelivery), endpointId: endpoint.id, eventId: event.id, eventType: event.type })
    .returning();
  return delivery!;
}

const bodiesOf = (deliveries: { id: string }[], attempts = 1) => deliveries.map((d) => ({ body: { deliveryId: d.id }, attempts }));
const rowsOf = async (ids: string[]) => new Map((await db().select().from(webhookDeliveries).where(inArray(webhookDeliveries.id, ids))).map((row) => [row.id, row]));
const attemptsOf = (ids: string[]) => db().select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, ids)).orderBy(asc(webhookAttempts.deliveryId));
const endpointRow = async (id: string) => (await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)))[0]!;
const hoursAgo = (h: number) => new Date(Date.now() - h * 3600_000).toISOString();

describe('deliveries, a batch at a time', () => {
  it('costs two D1 round trips whatever the batch holds: one read, one write', async () => {
    const channel = await openChannel();
    const endpoint = await insertEndpoint({ url: channel.url });
    for (const size of [1, 10]) {
      const deliveries = await Promise.all(Array.from({ length: size }, () => pendingDelivery(endpoint)));
      const { metrics, DB } = counted();
      const run = await runQueue('webhook-deliveries', bodiesOf(deliveries), { DB });
      expect(run.result.explicitAcks).toHaveLength(size);
      expect(metrics.roundTrips, `a batch of ${size}`).toBe(2);
      const rows = await rowsOf(deliveries.map((d) => d.id));
      for (const d of deliveries) expect(rows.get(d.id)).toMatchObject({ status: 'succeeded', attempts: 1, lastStatusCode: 200, deliveredAt: expect.any(String) });
      const attempts = await attemptsOf(deliveries.map((d) => d.id));
      expect(attempts.map((a) => [a.deliveryId, a.attempt, a.statusCode]).sort()).toEqual(deliveries.map((d) => [d.id, 1, 200]).sort());
    }
    const requests = await channel.requests();
    expect(requests).toHaveLength(11);
    expect(new Set(requests.map((r) => r.headers['x-store-delivery'])).size).toBe(11);
  });

  it('retries a failing message alone, with its own backoff, while the others are recorded as delivered', async () => {
    const healthy = await openChannel();
    const failing = await openChannel({ failFirst: 100, failStatus: 503 });
    const good = await insertEndpoint({ url: healthy.url });
    const bad = await insertEndpoint({ url: failing.url });
    const off = await insertEndpoint({ url: healthy.url, active: false });
    const delivered = [await pendingDelivery(good), await pendingDelivery(good), await pendingDelivery(good)];
    const broken = await pendingDelivery(bad);
    const inactive = await pendingDelivery(off);
    const { metrics, DB } = counted();
    const run = await runQueue('webhook-deliveries', [...bodiesOf([delivered[0]!]), ...bodiesOf([broken], 3), ...bodiesOf([delivered[1]!, inactive, delivered[2]!])], {
      DB,
      WEBHOOK_RETRY_BASE_SECONDS: '10',
    });
    expect(metrics.roundTrips).toBe(2);

    expect([0, 2, 3, 4].map((i) => run.acked(i))).toEqual([true, true, true, true]);
    expect([0, 2, 3, 4].map((i) => run.retried(i))).toEqual([false, false, false, false]);
    expect(run.retried(1)).toBe(true);
    expect(run.acked(1)).toBe(false);
    // Its own backoff: the third attempt of a 10 s base waits between 20 and 40 s.
    expect(run.delay(1)).toBeGreaterThanOrEqual(20);
    expect(run.delay(1)).toBeLessThanOrEqual(40);

    const rows = await rowsOf([...delivered, broken, inactive].map((d) => d.id));
    for (const d of delivered) expect(rows.get(d.id)).toMatchObject({ status: 'succeeded', attempts: 1, lastError: null });
    expect(rows.get(broken.id)).toMatchObject({ status: 'retrying', attempts: 1, lastStatusCode: 503, lastError: 'HTTP 503', nextRetryAt: expect.any(String), deliveredAt: null });
    expect(rows.get(inactive.id)).toMatchObject({ status: 'failed', attempts: 0, lastError: 'endpoint inactive' });
    const attempts = await attemptsOf([...delivered, broken, inactive].map((d) => d.id));
    expect(attempts).toHaveLength(4);
    expect(attempts.find((a) => a.deliveryId === broken.id)).toMatchObject({
      attempt: 1,
      statusCode: 503,
      error: 'HTTP 503',
      responseExcerpt: expect.stringContaining('receiver told to fail'),
    });
    expect((await healthy.requests()).length).toBe(3);
    expect((await failing.requests()).length).toBe(1);
    // Only the failing endpoint starts a failing run.
    expect((await endpointRow(good.id)).failingSince).toBeNull();
    expect((await endpointRow(bad.id)).failingSince).toBe(attempts.find((a) => a.deliveryId === broken.id)!.startedAt);
  });

  it("records the rest of the batch when the database refuses one message's results, and retries that one", async () => {
    const quick = await openChannel();
    const slow = await openChannel();
    const endpoint = await insertEndpoint({ url: quick.url });
    const hanging = await insertEndpoint({ url: slow.hangUrl });
    const doomed = await pendingDelivery(endpoint);
    const kept = await pendingDelivery(endpoint);
    const waiting = await pendingDelivery(hanging);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const running = runQueue('webhook-deliveries', bodiesOf([doomed, kept, waiting]), { WEBHOOK_TIMEOUT_MS: '1500' });
    // While the batch waits for the receiver that never answers, one of its deliveries is deleted:
    // its attempt can no longer be inserted (foreign key), so the batch's write is refused.
    await expect.poll(async () => (await quick.requests()).length, { timeout: 1_000, interval: 20 }).toBe(2);
    await db().delete(webhookDeliveries).where(eq(webhookDeliveries.id, doomed.id));
    const run = await running;
    vi.restoreAllMocks();

    expect(run.retried(0)).toBe(true);
    expect(run.acked(1)).toBe(true);
    expect(run.retried(2)).toBe(true);
    const rows = await rowsOf([kept.id, waiting.id]);
    expect(rows.get(kept.id)).toMatchObject({ status: 'succeeded', attempts: 1 });
    expect(rows.get(waiting.id)).toMatchObject({ status: 'retrying', attempts: 1, lastError: 'timeout after 1500 ms' });
    expect((await attemptsOf([doomed.id, kept.id, waiting.id])).map((a) => a.deliveryId).sort()).toEqual([kept.id, waiting.id].sort());
  });

  it('POSTs a delivery named by two messages of one batch once, and acks both', async () => {
    const channel = await openChannel();
    const delivery = await pendingDelivery(await insertEndpoint({ url: channel.url }));
    const run = await runQueue('webhook-deliveries', [...bodiesOf([delivery], 1), ...bodiesOf([delivery], 2)]);
    expect(run.acked(0) && run.acked(1)).toBe(true);
    expect(await channel.requests()).toHaveLength(1);
    expect(await attemptsOf([delivery.id])).toHaveLength(1);
    expect((await rowsOf([delivery.id])).get(delivery.id)).toMatchObject({ status: 'succeeded', attempts: 1 });
  });

  it('disables an endpoint failing for too long once per batch, however many of its deliveries failed in it', async () => {
    await db().update(storeSettings).set({ contactEmail: 'owner@shop.test' }).where(eq(storeSettings.id, 'store'));
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const failingSince = hoursAgo(80);
    const channel = await openChannel({ failFirst: 100, failStatus: 500 });
    const endpoint = await insertEndpoint({ url: channel.url, failingSince });
    const deliveries = [await pendingDelivery(endpoint), await pendingDelivery(endpoint), await pendingDelivery(endpoint)];
    const run = await runQueue('webhook-deliveries', bodiesOf(deliveries, 2));
    vi.restoreAllMocks();
    expect([0, 1, 2].map((i) => run.retried(i))).toEqual([true, true, true]);
    expect(await endpointRow(endpoint.id)).toMatchObject({ active: false, failingSince, disabledReason: `failing since ${failingSince}: HTTP 500` });
    const notices = (await db().select().from(notifications).where(eq(notifications.template, 'webhook_endpoint_disabled'))).filter((n) => n.data.endpointId === endpoint.id);
    expect(notices.map((n) => n.recipient)).toEqual(['owner@shop.test']);
    expect(await attemptsOf(deliveries.map((d) => d.id))).toHaveLength(3);
  });

  it("ends an endpoint's failing run when one of its deliveries in the batch succeeds, even if another fails after it", async () => {
    const channel = await openChannel({ failFirst: 1, failStatus: 500 });
    const old = hoursAgo(100);
    const endpoint = await insertEndpoint({ url: channel.url, failingSince: old });
    const deliveries = [await pendingDelivery(endpoint), await pendingDelivery(endpoint)];
    const run = await runQueue('webhook-deliveries', bodiesOf(deliveries));
    expect([run.acked(0), run.acked(1)].sort()).toEqual([false, true]);
    const after = await endpointRow(endpoint.id);
    // Whichever finished last, the success began a new run: never the 100-hour-old one, so not disabled.
    expect(after.active).toBe(true);
    expect(after.failingSince === null || after.failingSince > old).toBe(true);
    const attempts = await attemptsOf(deliveries.map((d) => d.id));
    const failed = attempts.find((a) => a.statusCode === 500)!;
    const succeeded = attempts.find((a) => a.statusCode === 200)!;
    const finished = (a: typeof failed) => Date.parse(a.startedAt) + a.durationMs;
    // The run is over if the success finished last, else it restarted at the failure.
    if (finished(failed) !== finished(succeeded)) expect(after.failingSince).toBe(finished(failed) > finished(succeeded) ? failed.startedAt : null);
    else expect([null, failed.startedAt]).toContain(after.failingSince);
  });
});
