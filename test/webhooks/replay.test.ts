import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { events, webhookDeliveries, webhookReplays } from '../../src/db/schema';
import { ID_PREFIX, newId } from '../../src/lib/ids';
import { createApiKey } from '../../src/modules/api-keys/api-keys.service';
import { REPLAYS_PER_HOUR } from '../../src/modules/webhooks/replays.schemas';
// EVENT_RETENTION_DAYS as the tests run it: its default.
const REPLAY_MAX_AGE_DAYS = 30;
import { REPLAY_PAGE, replayPage } from '../../src/webhooks/replay';
import { adminKey, api, db, expectError, insertVendorUser, uid } from '../helpers';
import { expectedStoreSignature, openChannel, recordingQueue } from './receiver-setup';

// POST /api/webhooks/{id}/replay, through the real webhook-replays and webhook-deliveries queues to
// the loopback receiver. Each test replays a window of its own, hours back, so the events of one
// test never fall in another's.

let key: string;
beforeAll(async () => {
  key = await adminKey();
});

const HOUR = 3_600_000;
const hoursAgo = (h: number) => new Date(Date.now() - h * HOUR).toISOString();
const POLL = { timeout: 30_000, interval: 200 };

async function event(type: string, createdAt: string) {
  const id = newId(ID_PREFIX.event, Date.parse(createdAt));
  await db()
    .insert(events)
    .values({ id, type, data: { note: uid() }, createdAt, publishedAt: createdAt });
  return id;
}

async function endpoint(url: string, subscribed: string[] = ['*']) {
  const res = await api('/api/webhooks', { method: 'POST', key, json: { url, events: subscribed } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data as { id: string; secret: string };
}

const replay = (id: string, json: unknown, credential = key) => api(`/api/webhooks/${id}/replay`, { method: 'POST', key: credential, json });

async function finished(endpointId: string, replayId: string) {
  await expect.poll(async () => (await api(`/api/webhooks/${endpointId}/replays/${replayId}`, { key })).body.data?.status, POLL).toBe('completed');
  return (await api(`/api/webhooks/${endpointId}/replays/${replayId}`, { key })).body.data;
}

const deliveriesOf = (endpointId: string) => db().select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId));

describe('POST /api/webhooks/{id}/replay', () => {
  it('sends a new endpoint each matching event of the window once, signed and marked as a replay; the same replay again sends nothing', { timeout: 60_000 }, async () => {
    const receiver = await openChannel();
    const hook = await endpoint(receiver.url);
    const inside = [await event('order.placed', hoursAgo(3.9)), await event('order.cancelled', hoursAgo(3.5)), await event('order.placed', hoursAgo(2.1))];
    await event('order.placed', hoursAgo(4.1)); // before the window
    await event('order.placed', hoursAgo(1.9)); // after it
    await event('product.created', hoursAgo(3)); // another kind

    const window = { from: hoursAgo(4), to: hoursAgo(2), types: ['order.*'] };
    const res = await replay(hook.id, window);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.data).toMatchObject({ status: 'queued', types: ['order.*'], eventTypes: ['order.placed', 'order.updated', 'order.cancelled'], matched: 0 });
    const first = await finished(hook.id, res.body.data.id);
    expect(first).toMatchObject({ matched: 3, queued: 3, skipped: 0, finishedAt: expect.any(String) });

    await expect.poll(async () => (await receiver.requests()).length, POLL).toBe(3);
    const requests = await receiver.requests();
    expect(requests.map((r) => JSON.parse(r.body).id).sort()).toEqual([...inside].sort());
    for (const request of requests) {
      expect(request.headers['x-store-replay']).toBe(first.id);
      expect(request.headers['x-store-signature']).toBe(await expectedStoreSignature(hook.secret, request.body));
    }
    const rows = await deliveriesOf(hook.id);
    expect(rows).toHaveLength(3);
    expect(rows.every((row) => row.replayId === first.id)).toBe(true);

    const again = await replay(hook.id, window);
    expect(again.status, JSON.stringify(again.body)).toBe(202);
    expect(await finished(hook.id, again.body.data.id)).toMatchObject({ matched: 3, queued: 0, skipped: 3 });
    // Nothing was queued, so nothing more can arrive: the rows and the receiver agree.
    expect(await deliveriesOf(hook.id)).toHaveLength(3);
    expect(await receiver.requests()).toHaveLength(3);

    const listed = await api(`/api/webhooks/${hook.id}/replays`, { key });
    expect(listed.body.data.map((r: { id: string }) => r.id)).toEqual([again.body.data.id, first.id]);
  });

  it('queues a delivery that failed for good again, and skips those delivered or still retrying', { timeout: 60_000 }, async () => {
    const receiver = await openChannel();
    const hook = await endpoint(receiver.url, ['payment.completed']);
    const at = hoursAgo(7.5);
    const failed = await event('payment.completed', at);
    const delivered = await event('payment.completed', hoursAgo(7.4));
    const retrying = await event('payment.completed', hoursAgo(7.3));
    const row = (eventId: string, status: 'failed' | 'succeeded' | 'retrying') => ({
      id: newId(ID_PREFIX.webhookDelivery),
      endpointId: hook.id,
      eventId,
      eventType: 'payment.completed',
      status,
      attempts: 3,
      createdAt: at,
      updatedAt: at,
    });
    await db()
      .insert(webhookDeliveries)
      .values([row(failed, 'failed'), row(delivered, 'succeeded'), row(retrying, 'retrying')]);

    const res = await replay(hook.id, { from: hoursAgo(8), to: hoursAgo(7) });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(await finished(hook.id, res.body.data.id)).toMatchObject({ matched: 3, queued: 1, skipped: 2 });
    await expect.poll(async () => (await deliveriesOf(hook.id)).find((d) => d.eventId === failed)?.status, POLL).toBe('succeeded');
    expect((await deliveriesOf(hook.id)).find((d) => d.eventId === failed)).toMatchObject({ replayId: res.body.data.id, attempts: 4 });
    const requests = await receiver.requests();
    expect(requests.map((r) => JSON.parse(r.body).id)).toEqual([failed]);
  });

  it('refuses windows and kinds it cannot replay with 422 naming the field', async () => {
    const hook = await endpoint(`https://hooks.example.com/${uid()}`, ['order.placed', 'product.created']);
    const cases: [unknown, string][] = [
      [{ from: hoursAgo(10), to: hoursAgo(11) }, 'to'],
      [{ from: hoursAgo(10), to: hoursAgo(10) }, 'to'],
      [{ from: new Date(Date.now() + HOUR).toISOString(), to: new Date(Date.now() + 2 * HOUR).toISOString() }, 'from'],
      [{ from: hoursAgo(24 * REPLAY_MAX_AGE_DAYS + 1), to: hoursAgo(1) }, 'from'],
      [{ from: 'yesterday', to: hoursAgo(1) }, 'from'],
      [{ from: hoursAgo(2), to: hoursAgo(1), types: ['nope.*'] }, 'types'],
      [{ from: hoursAgo(2), to: hoursAgo(1), types: ['order.placed', 'customer.registered'] }, 'types'],
      [{ from: hoursAgo(2), to: hoursAgo(1), extra: true }, 'extra'],
    ];
    for (const [body, field] of cases) {
      const res = await replay(hook.id, body);
      expectError(res, 422, 'VALIDATION_ERROR');
      expect(
        res.body.error.details.map((d: { field: string }) => d.field),
        JSON.stringify(body),
      ).toContain(field);
    }
    expect(await db().select().from(webhookReplays).where(eq(webhookReplays.endpointId, hook.id))).toHaveLength(0);
  });

  it('is 404 for an endpoint that does not exist, and for a replay of another endpoint', async () => {
    const hook = await endpoint(`https://hooks.example.com/${uid()}`);
    const other = await endpoint(`https://hooks.example.com/${uid()}`);
    expectError(await replay(`we_${uid()}`, { from: hoursAgo(12), to: hoursAgo(11) }), 404, 'NOT_FOUND');
    const res = await replay(hook.id, { from: hoursAgo(12), to: hoursAgo(11) });
    expect(res.status).toBe(202);
    expectError(await api(`/api/webhooks/${other.id}/replays/${res.body.data.id}`, { key }), 404, 'NOT_FOUND');
    expect((await api(`/api/webhooks/${other.id}/replays`, { key })).body.data).toEqual([]);
  });

  it('needs webhooks:write: vendor users, vendor keys and read-only keys are 403, and may read replays only with webhooks:read', async () => {
    const hook = await endpoint(`https://hooks.example.com/${uid()}`);
    const window = { from: hoursAgo(14), to: hoursAgo(13) };
    const { token, vendor } = await insertVendorUser();
    expectError(await replay(hook.id, window, token), 403, 'AUTHORIZATION_ERROR');
    const vendorKey = (await createApiKey(db(), { name: 'vendor key', role: 'vendor', vendorId: vendor.id })).key;
    expectError(await replay(hook.id, window, vendorKey), 403, 'AUTHORIZATION_ERROR');
    expectError(await api(`/api/webhooks/${hook.id}/replays`, { key: token }), 403, 'AUTHORIZATION_ERROR');
    const reader = (await createApiKey(db(), { name: 'reader', permissions: ['webhooks:read'] })).key;
    expectError(await replay(hook.id, window, reader), 403, 'AUTHORIZATION_ERROR');
    expect((await api(`/api/webhooks/${hook.id}/replays`, { key: reader })).status).toBe(200);
    expect(await db().select().from(webhookReplays).where(eq(webhookReplays.endpointId, hook.id))).toHaveLength(0);
  });

  it('runs one replay per endpoint at a time (409) and a few an hour (429 with Retry-After)', async () => {
    const hook = await endpoint(`https://hooks.example.com/${uid()}`);
    const window = { from: hoursAgo(16), to: hoursAgo(15) };
    const past = (status: 'running' | 'completed', minutesAgo: number) => {
      const at = new Date(Date.now() - minutesAgo * 60_000).toISOString();
      return { id: newId(ID_PREFIX.webhookReplay), endpointId: hook.id, status, from: window.from, to: window.to, eventTypes: ['order.placed'], createdAt: at, updatedAt: at };
    };
    const [running] = await db().insert(webhookReplays).values(past('running', 1)).returning();
    const busy = await replay(hook.id, window);
    expectError(busy, 409, 'CONFLICT');
    expect(busy.body.error.message).toContain(running!.id);

    await db().update(webhookReplays).set({ status: 'completed' }).where(eq(webhookReplays.id, running!.id));
    // The oldest of the hour 50 minutes ago: the next replay is allowed in about 10 minutes.
    await db()
      .insert(webhookReplays)
      .values([past('completed', 50), ...Array.from({ length: REPLAYS_PER_HOUR - 2 }, () => past('completed', 5))]);
    const limited = await replay(hook.id, window);
    expectError(limited, 429, 'RATE_LIMITED');
    const retryAfter = Number(limited.headers.get('Retry-After'));
    expect(retryAfter).toBeGreaterThan(9 * 60);
    expect(retryAfter).toBeLessThanOrEqual(10 * 60);
    expect(await db().select().from(webhookReplays).where(eq(webhookReplays.endpointId, hook.id))).toHaveLength(REPLAYS_PER_HOUR);
  });

  it('runs one of 8 replays asked at once: the others are 409 CONFLICT in the envelope, none a 5xx', async () => {
    const hook = await endpoint(`https://hooks.example.com/${uid()}`);
    const window = { from: hoursAgo(18), to: hoursAgo(17) };
    const answers = await Promise.all(Array.from({ length: 8 }, () => replay(hook.id, window)));
    const statuses = answers.map((res) => res.status);
    expect(
      statuses.filter((s) => s === 202),
      JSON.stringify(answers.map((r) => [r.status, r.body])),
    ).toHaveLength(1);
    const losers = answers.filter((res) => res.status !== 202);
    expect(losers).toHaveLength(7);
    for (const res of losers) expectError(res, 409, 'CONFLICT');
    expect(await db().select().from(webhookReplays).where(eq(webhookReplays.endpointId, hook.id))).toHaveLength(1);
  });
});

describe('the webhook-replays consumer', () => {
  /** REPLAY_PAGE + 30 events of one kind, two to a millisecond (the cursor orders by id as well as time), and a queued replay of them all. */
  async function longWindow(hoursBack: number) {
    const hook = await endpoint(`https://hooks.example.com/${uid()}`, ['product.updated']);
    const base = Date.now() - hoursBack * HOUR;
    const rows = Array.from({ length: REPLAY_PAGE + 30 }, (_, i) => {
      const createdAt = new Date(base + Math.floor(i / 2)).toISOString();
      return { id: newId(ID_PREFIX.event, Date.parse(createdAt)), type: 'product.updated', data: {}, createdAt, publishedAt: createdAt };
    });
    // Five columns a row: under D1's 100 bound parameters a statement.
    for (let i = 0; i < rows.length; i += 15)
      await db()
        .insert(events)
        .values(rows.slice(i, i + 15));
    const at = new Date().toISOString();
    const [row] = await db()
      .insert(webhookReplays)
      .values({
        id: newId(ID_PREFIX.webhookReplay),
        endpointId: hook.id,
        from: new Date(base).toISOString(),
        to: new Date(base + HOUR).toISOString(),
        eventTypes: ['product.updated'],
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    const deliveries = recordingQueue();
    const pages = recordingQueue();
    return { hook, events: rows.map((r) => r.id), replayId: row!.id, deliveries, pages, env: { DB: env.DB, DELIVERIES_QUEUE: deliveries.queue, REPLAYS_QUEUE: pages.queue } };
  }
  const replayRow = async (id: string) => (await db().select().from(webhookReplays).where(eq(webhookReplays.id, id)))[0]!;

  it('works the window a page at a time, each page sending the next, and ends completed', async () => {
    const { hook, events: all, replayId, deliveries, pages, env: queues } = await longWindow(20);
    expect(await replayPage(db(), queues, replayId)).toBe(true);
    expect(pages.sent).toEqual([replayId]);
    expect(await replayRow(replayId)).toMatchObject({ status: 'running', matched: REPLAY_PAGE, queued: REPLAY_PAGE, skipped: 0, finishedAt: null });
    expect(deliveries.sent).toHaveLength(REPLAY_PAGE);

    expect(await replayPage(db(), queues, replayId)).toBe(false);
    expect(pages.sent).toEqual([replayId]);
    expect(await replayRow(replayId)).toMatchObject({ status: 'completed', matched: all.length, queued: all.length, skipped: 0, finishedAt: expect.any(String) });
    // Every event once, oldest first.
    const rows = await deliveriesOf(hook.id);
    expect(new Set(deliveries.sent)).toEqual(new Set(rows.map((r) => r.id)));
    expect(rows.map((r) => r.eventId).sort()).toEqual([...all].sort());

    // A repeated message after the end does nothing.
    expect(await replayPage(db(), queues, replayId)).toBe(false);
    expect(deliveries.sent).toHaveLength(all.length);
  });

  it('counts and sends each event once when the same page is worked twice at once', async () => {
    const { hook, events: all, replayId, deliveries, pages, env: queues } = await longWindow(22);
    await Promise.all([replayPage(db(), queues, replayId), replayPage(db(), queues, replayId)]);
    for (let guard = 0; (await replayRow(replayId)).status !== 'completed' && guard < 5; guard++) await replayPage(db(), queues, replayId);
    expect(await replayRow(replayId)).toMatchObject({ status: 'completed', matched: all.length, queued: all.length, skipped: 0 });
    expect(deliveries.sent).toHaveLength(all.length);
    expect(new Set(deliveries.sent).size).toBe(all.length);
    expect(await deliveriesOf(hook.id)).toHaveLength(all.length);
    expect(pages.sent.length).toBeLessThanOrEqual(2);
  });

  it('fails the replay, saying why, when its endpoint was switched off meanwhile', async () => {
    const { hook, replayId, deliveries, env: queues } = await longWindow(24);
    await api(`/api/webhooks/${hook.id}`, { method: 'PATCH', key, json: { active: false } });
    expect(await replayPage(db(), queues, replayId)).toBe(false);
    expect(await replayRow(replayId)).toMatchObject({ status: 'failed', error: expect.stringContaining('switched off'), finishedAt: expect.any(String) });
    expect(deliveries.sent).toEqual([]);
  });
});
