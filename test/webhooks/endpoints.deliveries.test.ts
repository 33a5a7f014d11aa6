import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { events, webhookAttempts, webhookDeliveries, webhookEndpoints, type WebhookDeliveryRow } from '../../src/db/schema';
import { adminKey, api, db, expectError, uid } from '../helpers';

let key: string;
beforeAll(async () => {
  key = await adminKey();
});

const PATH = '/api/webhooks';

async function newEndpoint(json: Record<string, unknown> = {}): Promise<string> {
  const res = await api(PATH, { method: 'POST', key, json: { url: `https://hooks.example.com/${uid()}`, events: ['*'], ...json } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id;
}

async function insertEvent(type: string, data: Record<string, unknown>, createdAt: string) {
  const id = `evt_${uid().toUpperCase()}`;
  await db().insert(events).values({ id, type, data, createdAt, publishedAt: createdAt });
  return id;
}

/** A delivery row written directly, as the consumer would have left it. */
async function insertDelivery(endpointId: string, values: Partial<WebhookDeliveryRow> & { eventType: string; createdAt: string }) {
  const eventId = values.eventId ?? (await insertEvent(values.eventType, { orderId: `ord_${uid()}` }, values.createdAt));
  const id = `whd_${uid().toUpperCase()}`;
  await db()
    .insert(webhookDeliveries)
    .values({ id, endpointId, eventId, updatedAt: values.createdAt, ...values });
  return { id, eventId };
}

/**
 * Calls the app with a DELIVERIES_QUEUE that records what is sent, so the tests see exactly which
 * messages were queued and the row state before any consumer touches it.
 */
async function withRecordingQueue(path: string, init: { method: string; json?: unknown }) {
  const sent: unknown[] = [];
  const DELIVERIES_QUEUE = {
    send: async (body: unknown) => void sent.push(body),
    sendBatch: async (messages: { body: unknown }[]) => void sent.push(...messages.map((m) => m.body)),
  } as unknown as Queue;
  const headers: Record<string, string> = { Authorization: `Bearer ${key}` };
  if (init.json !== undefined) headers['Content-Type'] = 'application/json';
  const request = new Request(`http://store.test${path}`, { method: init.method, headers, body: init.json === undefined ? undefined : JSON.stringify(init.json) });
  const ctx = createExecutionContext();
  const res = await createApp().fetch(request, { ...env, DELIVERIES_QUEUE }, ctx);
  await waitOnExecutionContext(ctx);
  return { status: res.status, body: (await res.json()) as any, sent };
}

const deliveryRow = async (id: string) => (await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id)))[0]!;

describe('GET /api/webhooks/{id}/deliveries', () => {
  it('lists this endpoint deliveries newest first, filtered by status, event and day, counted in SQL', async () => {
    const endpoint = await newEndpoint();
    const other = await newEndpoint();
    const a = await insertDelivery(endpoint, {
      eventType: 'order.placed',
      status: 'succeeded',
      attempts: 1,
      lastStatusCode: 200,
      createdAt: '2026-03-01T10:00:00.000Z',
      deliveredAt: '2026-03-01T10:00:01.000Z',
    });
    const b = await insertDelivery(endpoint, {
      eventType: 'product.created',
      status: 'retrying',
      attempts: 2,
      lastStatusCode: 503,
      lastError: 'HTTP 503',
      nextRetryAt: '2026-03-02T10:05:00.000Z',
      createdAt: '2026-03-02T10:00:00.000Z',
    });
    const c = await insertDelivery(endpoint, {
      eventType: 'order.placed',
      status: 'failed',
      attempts: 20,
      lastError: 'timeout after 10000 ms',
      createdAt: '2026-03-03T10:00:00.000Z',
    });
    await insertDelivery(other, { eventType: 'order.placed', status: 'pending', createdAt: '2026-03-04T10:00:00.000Z' });

    const all = await api(`${PATH}/${endpoint}/deliveries`, { key });
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(all.body.data.map((d: { id: string }) => d.id)).toEqual([c.id, b.id, a.id]);
    expect(all.body.pagination).toEqual({ page: 1, limit: 20, total: 3, totalPages: 1, hasNext: false, hasPrev: false });
    expect(all.body.data[1]).toEqual({
      id: b.id,
      eventId: b.eventId,
      event: 'product.created',
      status: 'retrying',
      attempts: 2,
      lastStatusCode: 503,
      lastError: 'HTTP 503',
      lastAttemptAt: null,
      nextRetryAt: '2026-03-02T10:05:00.000Z',
      deliveredAt: null,
      replayId: null,
      createdAt: '2026-03-02T10:00:00.000Z',
    });

    const ids = async (query: string) => {
      const res = await api(`${PATH}/${endpoint}/deliveries?${query}`, { key });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return { ids: res.body.data.map((d: { id: string }) => d.id), total: res.body.pagination.total };
    };
    expect(await ids('status=failed')).toEqual({ ids: [c.id], total: 1 });
    expect(await ids('event=order.placed')).toEqual({ ids: [c.id, a.id], total: 2 });
    expect(await ids('created_after=2026-03-02&created_before=2026-03-03')).toEqual({ ids: [b.id], total: 1 });
    expect(await ids('limit=1&page=2')).toEqual({ ids: [b.id], total: 3 });
    expect(await ids('sort=created_at:asc')).toEqual({ ids: [a.id, b.id, c.id], total: 3 });
    const picked = await api(`${PATH}/${endpoint}/deliveries?status=succeeded&fields=id,event,status`, { key });
    expect(picked.body.data).toEqual([{ id: a.id, event: 'order.placed', status: 'succeeded' }]);
  });

  it('is 404 for an unknown endpoint and 400 for a bad filter', async () => {
    expectError(await api(`${PATH}/we_nope/deliveries`, { key }), 404, 'NOT_FOUND');
    const endpoint = await newEndpoint();
    for (const query of ['status=lost', 'event=order.exploded', 'created_after=yesterday', 'endpoint=x']) {
      expectError(await api(`${PATH}/${endpoint}/deliveries?${query}`, { key }), 400, 'INVALID_REQUEST');
    }
  });
});

describe('GET /api/webhooks/{id}/deliveries/{deliveryId}', () => {
  it('shows every attempt in order and the exact payload that is sent', async () => {
    const endpoint = await newEndpoint();
    const createdAt = '2026-04-01T08:00:00.000Z';
    const data = { orderId: 'ord_1', customerId: 'user_1', total: 19.99, currency: 'EUR', status: 'pending' };
    const eventId = await insertEvent('order.placed', data, createdAt);
    const { id } = await insertDelivery(endpoint, { eventId, eventType: 'order.placed', status: 'succeeded', attempts: 2, lastStatusCode: 204, createdAt });
    await db()
      .insert(webhookAttempts)
      .values([
        { id: `wha_${uid()}`, deliveryId: id, attempt: 2, startedAt: '2026-04-01T08:00:31.000Z', durationMs: 40, statusCode: 204, responseExcerpt: '' },
        {
          id: `wha_${uid()}`,
          deliveryId: id,
          attempt: 1,
          startedAt: '2026-04-01T08:00:01.000Z',
          durationMs: 10000,
          error: 'timeout after 10000 ms',
          nextRetryAt: '2026-04-01T08:00:31.000Z',
        },
      ]);

    const res = await api(`${PATH}/${endpoint}/deliveries/${id}`, { key });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ id, eventId, event: 'order.placed', status: 'succeeded', attempts: 2, lastStatusCode: 204 });
    expect(res.body.data.attemptHistory).toEqual([
      {
        attempt: 1,
        startedAt: '2026-04-01T08:00:01.000Z',
        durationMs: 10000,
        statusCode: null,
        error: 'timeout after 10000 ms',
        responseExcerpt: null,
        nextRetryAt: '2026-04-01T08:00:31.000Z',
      },
      { attempt: 2, startedAt: '2026-04-01T08:00:31.000Z', durationMs: 40, statusCode: 204, error: null, responseExcerpt: '', nextRetryAt: null },
    ]);
    expect(res.body.data.payload).toMatchObject({ id: eventId, event: 'order.placed', data, timestamp: createdAt, position: expect.any(Number) });
    expect(Object.keys(res.body.data.payload)).toEqual(['id', 'event', 'data', 'timestamp', 'position', 'resourceId', 'sequence']);

    const picked = await api(`${PATH}/${endpoint}/deliveries/${id}?fields=id,attempt_history(attempt,status_code)`, { key });
    expect(picked.body.data).toEqual({
      id,
      attemptHistory: [
        { attempt: 1, statusCode: null },
        { attempt: 2, statusCode: 204 },
      ],
    });
  });

  it("is 404 for an unknown delivery or another endpoint's", async () => {
    const endpoint = await newEndpoint();
    const other = await newEndpoint();
    const { id } = await insertDelivery(other, { eventType: 'order.placed', createdAt: new Date().toISOString() });
    expectError(await api(`${PATH}/${endpoint}/deliveries/${id}`, { key }), 404, 'NOT_FOUND');
    expectError(await api(`${PATH}/${endpoint}/deliveries/whd_nope`, { key }), 404, 'NOT_FOUND');
    expect((await api(`${PATH}/${other}/deliveries/${id}`, { key })).status).toBe(200);
  });
});

describe('POST /api/webhooks/{id}/deliveries/{deliveryId}/redeliver', () => {
  it('sets the delivery back to pending and queues it, no longer as a replay: 202 with the delivery', async () => {
    const endpoint = await newEndpoint();
    const { id } = await insertDelivery(endpoint, {
      eventType: 'order.cancelled',
      status: 'failed',
      replayId: 'whr_EARLIER',
      attempts: 20,
      lastError: 'HTTP 500',
      lastStatusCode: 500,
      nextRetryAt: '2026-04-02T00:00:00.000Z',
      createdAt: '2026-04-01T00:00:00.000Z',
    });
    const res = await withRecordingQueue(`${PATH}/${endpoint}/deliveries/${id}/redeliver`, { method: 'POST' });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.data).toMatchObject({ id, status: 'pending', nextRetryAt: null, attempts: 20, lastStatusCode: 500, replayId: null });
    expect(res.sent).toEqual([{ deliveryId: id }]);
    expect(await deliveryRow(id)).toMatchObject({ status: 'pending', nextRetryAt: null, attempts: 20, replayId: null });
  });

  it('accepts an empty JSON object and refuses options it does not know', async () => {
    const endpoint = await newEndpoint();
    const { id } = await insertDelivery(endpoint, { eventType: 'order.placed', status: 'succeeded', createdAt: new Date().toISOString() });
    expect((await withRecordingQueue(`${PATH}/${endpoint}/deliveries/${id}/redeliver`, { method: 'POST', json: {} })).status).toBe(202);
    const refused = await withRecordingQueue(`${PATH}/${endpoint}/deliveries/${id}/redeliver`, { method: 'POST', json: { force: true } });
    expectError(refused, 422, 'VALIDATION_ERROR');
    expect(refused.sent).toEqual([]);
  });

  it('is 409 for an inactive or disabled endpoint and 404 for a delivery it does not own, queueing nothing', async () => {
    const inactive = await newEndpoint({ active: false });
    const { id: ofInactive } = await insertDelivery(inactive, { eventType: 'order.placed', status: 'failed', createdAt: new Date().toISOString() });
    const refused = await withRecordingQueue(`${PATH}/${inactive}/deliveries/${ofInactive}/redeliver`, { method: 'POST' });
    expectError(refused, 409, 'CONFLICT');
    expect(refused.body.error.message).toContain('inactive');
    expect(refused.sent).toEqual([]);
    expect((await deliveryRow(ofInactive)).status).toBe('failed');

    const disabled = await newEndpoint();
    await db()
      .update(webhookEndpoints)
      .set({ active: false, disabledAt: new Date().toISOString(), disabledReason: 'failing for 72 hours' })
      .where(eq(webhookEndpoints.id, disabled));
    const { id: ofDisabled } = await insertDelivery(disabled, { eventType: 'order.placed', status: 'failed', createdAt: new Date().toISOString() });
    const refusedDisabled = await withRecordingQueue(`${PATH}/${disabled}/deliveries/${ofDisabled}/redeliver`, { method: 'POST' });
    expectError(refusedDisabled, 409, 'CONFLICT');
    expect(refusedDisabled.body.error.message).toContain('disabled (failing for 72 hours)');

    const active = await newEndpoint();
    const notOwned = await withRecordingQueue(`${PATH}/${active}/deliveries/${ofInactive}/redeliver`, { method: 'POST' });
    expectError(notOwned, 404, 'NOT_FOUND');
    expect(notOwned.sent).toEqual([]);
    expectError(await api(`${PATH}/we_nope/deliveries/${ofInactive}/redeliver`, { method: 'POST', key }), 404, 'NOT_FOUND');
  });
});

describe('POST /api/webhooks/{id}/test', () => {
  it('creates a ping event (already published) and one delivery for this endpoint only, and queues it', async () => {
    const endpoint = await newEndpoint();
    const bystander = await newEndpoint({ events: ['*'] });
    const res = await withRecordingQueue(`${PATH}/${endpoint}/test`, { method: 'POST' });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const delivery = res.body.data;
    expect(delivery).toMatchObject({ id: expect.stringMatching(/^whd_/), eventId: expect.stringMatching(/^evt_/), event: 'ping', status: 'pending', attempts: 0 });
    expect(res.sent).toEqual([{ deliveryId: delivery.id }]);

    const [event] = await db().select().from(events).where(eq(events.id, delivery.eventId));
    expect(event).toMatchObject({ type: 'ping', data: { webhookId: endpoint, message: 'Test delivery from the store' }, publishedAt: expect.any(String) });
    const all = await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.eventId, delivery.eventId));
    expect(all.map((d) => d.endpointId)).toEqual([endpoint]);
    expect(all.some((d) => d.endpointId === bystander)).toBe(false);

    const detail = await api(`${PATH}/${endpoint}/deliveries/${delivery.id}`, { key });
    expect(detail.body.data.payload).toEqual({
      id: delivery.eventId,
      event: 'ping',
      data: { webhookId: endpoint, message: 'Test delivery from the store' },
      timestamp: event!.createdAt,
      position: event!.position,
      resourceId: null,
      sequence: null,
    });
  });

  it('works through the real queue binding', async () => {
    // Loopback with nothing listening: whatever the consumer does with it stays on this machine.
    const endpoint = await newEndpoint({ url: 'http://127.0.0.1:9/ping' });
    const res = await api(`${PATH}/${endpoint}/test`, { method: 'POST', key, json: {} });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.data.event).toBe('ping');
  });

  it('is 409 for an inactive endpoint and 404 for an unknown one', async () => {
    const inactive = await newEndpoint({ active: false });
    const res = await withRecordingQueue(`${PATH}/${inactive}/test`, { method: 'POST' });
    expectError(res, 409, 'CONFLICT');
    expect(res.sent).toEqual([]);
    expect(await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, inactive))).toEqual([]);
    expectError(await api(`${PATH}/we_nope/test`, { method: 'POST', key }), 404, 'NOT_FOUND');
  });
});
