import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { webhookAttempts, webhookDeliveries, webhookEndpoints, type WebhookEndpointRow } from '../../src/db/schema';
import type { Bindings } from '../../src/env';
import { ID_PREFIX, newId } from '../../src/lib/ids';
import { db } from '../helpers';
import { closedUrl, expectedStandardSignature, expectedStoreSignature, insertEndpoint, insertEvent, openChannel, runQueue, testSecret, type ChannelScript } from './receiver-setup';

// The webhook-deliveries consumer on real batches, POSTing to the loopback receiver.

async function insertDelivery(endpoint: WebhookEndpointRow, type = 'order.placed', data: Record<string, unknown> = { orderId: `ord_${crypto.randomUUID()}`, total: 12.5 }) {
  const event = await insertEvent(type, data);
  const [delivery] = await db()
    .insert(webhookDeliveries)
    .values({ id: newId(ID_PREFIX.webhookDelivery), endpointId: endpoint.id, eventId: event.id, eventType: type })
    .returning();
  return { event, delivery: delivery! };
}

/** An endpoint on a fresh receiver channel, with one pending delivery to it. */
async function setup(script: ChannelScript = {}, endpoint: Partial<WebhookEndpointRow> = {}) {
  const channel = await openChannel(script);
  const row = await insertEndpoint({ url: channel.url, ...endpoint });
  return { channel, endpoint: row, ...(await insertDelivery(row)) };
}

const deliver = (deliveryId: string, attempts = 1, overrides: Partial<Bindings> = {}) => runQueue('webhook-deliveries', [{ body: { deliveryId }, attempts }], overrides);
const deliveryRow = async (id: string) => (await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)))[0]!;
const attemptsOf = (id: string) => db().select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, id)).orderBy(asc(webhookAttempts.attempt));
const endpointRow = async (id: string) => (await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)))[0]!;

describe('delivery (webhook-deliveries)', () => {
  it('POSTs the envelope with every header and signature, acks a 2xx and records the success', async () => {
    const { channel, endpoint, event, delivery } = await setup();
    const run = await deliver(delivery.id);
    expect(run.acked()).toBe(true);
    expect(run.retried()).toBe(false);

    const [request] = await channel.requests();
    expect(request!.method).toBe('POST');
    expect(request!.body).toBe(
      JSON.stringify({
        id: event.id,
        event: 'order.placed',
        data: event.data,
        timestamp: event.createdAt,
        position: event.position,
        resourceId: event.data.orderId,
        sequence: event.sequence,
      }),
    );
    expect(event.position).toEqual(expect.any(Number));
    expect(request!.headers).toMatchObject({
      'content-type': 'application/json',
      'x-store-event': 'order.placed',
      'x-store-delivery': delivery.id,
      'webhook-id': delivery.id,
    });
    expect(request!.headers['x-store-signature']).toBe(await expectedStoreSignature(endpoint.secret, request!.body));
    expect(request!.headers['x-store-signature']).toMatch(/^[0-9a-f]{64}$/);
    const timestamp = request!.headers['webhook-timestamp']!;
    expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(60);
    expect(request!.headers['webhook-signature']).toBe(await expectedStandardSignature(endpoint.secret, delivery.id, timestamp, request!.body));
    expect(request!.headers).not.toHaveProperty('x-store-signature-previous');
    // A live delivery, not a replay (test/webhooks/replay.test.ts sees the header on one).
    expect(request!.headers).not.toHaveProperty('x-store-replay');

    expect(await deliveryRow(delivery.id)).toMatchObject({
      status: 'succeeded',
      attempts: 1,
      lastStatusCode: 200,
      lastError: null,
      nextRetryAt: null,
      deliveredAt: expect.any(String),
      lastAttemptAt: expect.any(String),
    });
    const [attempt] = await attemptsOf(delivery.id);
    expect(attempt).toMatchObject({ id: expect.stringMatching(/^wha_/), attempt: 1, statusCode: 200, error: null, responseExcerpt: '{"received":true}', nextRetryAt: null });
    expect(attempt!.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('never sends a succeeded delivery again (a duplicate message is acked without a request)', async () => {
    const { channel, delivery } = await setup();
    await deliver(delivery.id);
    const again = await deliver(delivery.id);
    expect(again.acked()).toBe(true);
    expect(await channel.requests()).toHaveLength(1);
    expect(await attemptsOf(delivery.id)).toHaveLength(1);
  });

  it('retries a 500 with growing delays, records each attempt, and sends the same bytes each time until it succeeds', async () => {
    const { channel, endpoint, delivery } = await setup({ failFirst: 4, failStatus: 500 });
    const base = 10;
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 4; attempt++) {
      const run = await deliver(delivery.id, attempt, { WEBHOOK_RETRY_BASE_SECONDS: String(base) });
      expect(run.retried()).toBe(true);
      expect(run.acked()).toBe(false);
      delays.push(run.delay()!);
      expect(await deliveryRow(delivery.id)).toMatchObject({ status: 'retrying', attempts: attempt, lastStatusCode: 500, lastError: 'HTTP 500', nextRetryAt: expect.any(String) });
    }
    // Equal jitter around 10, 20, 40, 80 s: within [step/2, step], so never shrinking.
    delays.forEach((delay, i) => {
      const step = base * 2 ** i;
      expect(delay).toBeGreaterThanOrEqual(step / 2);
      expect(delay).toBeLessThanOrEqual(step);
    });
    expect(delays[3]).toBeGreaterThan(delays[0]!);
    expect((await endpointRow(endpoint.id)).failingSince).toEqual(expect.any(String));

    const last = await deliver(delivery.id, 5);
    expect(last.acked()).toBe(true);
    const attempts = await attemptsOf(delivery.id);
    expect(attempts.map((a) => [a.attempt, a.statusCode])).toEqual([
      [1, 500],
      [2, 500],
      [3, 500],
      [4, 500],
      [5, 200],
    ]);
    expect(attempts[0]!.responseExcerpt).toBe('receiver told to fail (3 more)');
    expect(attempts[0]!.error).toBe('HTTP 500');
    expect(attempts.slice(0, 4).every((a) => a.nextRetryAt !== null)).toBe(true);
    expect(attempts[4]!.nextRetryAt).toBeNull();
    const gap = Date.parse(attempts[1]!.nextRetryAt!) - Date.parse(attempts[1]!.startedAt);
    expect(gap / 1000).toBeGreaterThanOrEqual(delays[1]!);

    const requests = await channel.requests();
    expect(requests.map((r) => r.answered)).toEqual([500, 500, 500, 500, 200]);
    expect(new Set(requests.map((r) => r.body)).size).toBe(1);
    expect(new Set(requests.map((r) => r.headers['x-store-delivery'])).size).toBe(1);
    expect(await deliveryRow(delivery.id)).toMatchObject({ status: 'succeeded', attempts: 5, lastStatusCode: 200, lastError: null, nextRetryAt: null });
    // A success ends the endpoint's failing run.
    expect((await endpointRow(endpoint.id)).failingSince).toBeNull();
  });

  it('gives a receiver that never answers WEBHOOK_TIMEOUT_MS, then retries', async () => {
    const channel = await openChannel();
    const endpoint = await insertEndpoint({ url: channel.hangUrl });
    const { delivery } = await insertDelivery(endpoint);
    const run = await deliver(delivery.id, 1, { WEBHOOK_TIMEOUT_MS: '300' });
    expect(run.retried()).toBe(true);
    expect(await channel.requests()).toHaveLength(1);
    const [attempt] = await attemptsOf(delivery.id);
    expect(attempt).toMatchObject({ statusCode: null, error: 'timeout after 300 ms', responseExcerpt: null, nextRetryAt: expect.any(String) });
    expect(attempt!.durationMs).toBeGreaterThanOrEqual(250);
    expect(attempt!.durationMs).toBeLessThan(5_000);
    expect(await deliveryRow(delivery.id)).toMatchObject({ status: 'retrying', lastStatusCode: null, lastError: 'timeout after 300 ms' });
  });

  it('retries a network error (a closed port)', async () => {
    const endpoint = await insertEndpoint({ url: closedUrl() });
    const { delivery } = await insertDelivery(endpoint);
    const run = await deliver(delivery.id, 2);
    expect(run.retried()).toBe(true);
    expect(run.delay()).toBeGreaterThanOrEqual(1);
    const [attempt] = await attemptsOf(delivery.id);
    expect(attempt).toMatchObject({ statusCode: null, error: expect.stringMatching(/^network error: /) });
    expect((await deliveryRow(delivery.id)).lastError).toMatch(/^network error: /);
  });

  it('treats a redirect as a failure and does not follow it', async () => {
    const elsewhere = await openChannel();
    const { channel, delivery } = await setup({ redirectTo: elsewhere.url });
    const run = await deliver(delivery.id);
    expect(run.retried()).toBe(true);
    expect(await channel.requests()).toHaveLength(1);
    expect(await elsewhere.requests()).toEqual([]);
    const [attempt] = await attemptsOf(delivery.id);
    expect(attempt).toMatchObject({ statusCode: 302, error: `redirect to ${elsewhere.url} not followed` });
  });

  it('keeps the first 1 KB of a long response', async () => {
    const { delivery } = await setup({ answerBody: 'x'.repeat(5000) });
    expect((await deliver(delivery.id)).acked()).toBe(true);
    const [attempt] = await attemptsOf(delivery.id);
    expect(attempt!.responseExcerpt).toBe('x'.repeat(1024));
  });

  it('signs with the previous secret too while its overlap lasts, and not after', async () => {
    const previous = testSecret();
    const overlapping = await setup({}, { previousSecret: previous, previousSecretExpiresAt: new Date(Date.now() + 3600_000).toISOString() });
    await deliver(overlapping.delivery.id);
    const [request] = await overlapping.channel.requests();
    const timestamp = request!.headers['webhook-timestamp']!;
    expect(request!.headers['x-store-signature']).toBe(await expectedStoreSignature(overlapping.endpoint.secret, request!.body));
    expect(request!.headers['x-store-signature-previous']).toBe(await expectedStoreSignature(previous, request!.body));
    expect(request!.headers['webhook-signature']!.split(' ')).toEqual([
      await expectedStandardSignature(overlapping.endpoint.secret, overlapping.delivery.id, timestamp, request!.body),
      await expectedStandardSignature(previous, overlapping.delivery.id, timestamp, request!.body),
    ]);

    const expired = await setup({}, { previousSecret: previous, previousSecretExpiresAt: new Date(Date.now() - 1000).toISOString() });
    await deliver(expired.delivery.id);
    const [late] = await expired.channel.requests();
    expect(late!.headers).not.toHaveProperty('x-store-signature-previous');
    expect(late!.headers['webhook-signature']!.split(' ')).toHaveLength(1);
  });

  it('fails a delivery to an inactive or deleted endpoint without sending, and acks', async () => {
    const { channel, endpoint, delivery } = await setup();
    await db().update(webhookEndpoints).set({ active: false }).where(eq(webhookEndpoints.id, endpoint.id));
    const run = await deliver(delivery.id);
    expect(run.acked()).toBe(true);
    expect(await channel.requests()).toEqual([]);
    expect(await deliveryRow(delivery.id)).toMatchObject({ status: 'failed', lastError: 'endpoint inactive', nextRetryAt: null, attempts: 0 });

    const gone = await setup();
    await db().delete(webhookEndpoints).where(eq(webhookEndpoints.id, gone.endpoint.id)); // cascades to its deliveries
    expect((await deliver(gone.delivery.id)).acked()).toBe(true);
    expect(await gone.channel.requests()).toEqual([]);
  });

  it('acks each message on its own: one bad endpoint does not hold back or fail the others', async () => {
    const good = await setup();
    const failing = await setup({ failFirst: 5 });
    const unreachable = await insertDelivery(await insertEndpoint({ url: closedUrl() }));
    const good2 = await setup();
    const run = await runQueue(
      'webhook-deliveries',
      [good, failing, unreachable, good2].map((d) => ({ body: { deliveryId: d.delivery.id } })),
    );
    expect([0, 1, 2, 3].map((i) => run.acked(i))).toEqual([true, false, false, true]);
    expect([0, 1, 2, 3].map((i) => run.retried(i))).toEqual([false, true, true, false]);
    expect(run.result.retryBatch.retry).toBe(false);
    expect(run.result.ackAll).toBe(false);
    expect((await deliveryRow(good2.delivery.id)).status).toBe('succeeded');
  });

  it('stops proposing a next retry on the last attempt before the dead-letter queue', async () => {
    const { delivery } = await setup({ failFirst: 1 });
    const run = await deliver(delivery.id, 21);
    expect(run.retried()).toBe(true); // the queue moves it to webhook-deliveries-dlq
    expect(await deliveryRow(delivery.id)).toMatchObject({ status: 'retrying', nextRetryAt: null });
    expect((await attemptsOf(delivery.id))[0]!.nextRetryAt).toBeNull();
  });

  it('acks a message for a delivery that does not exist', async () => {
    expect((await deliver('whd_missing')).acked()).toBe(true);
  });
});
