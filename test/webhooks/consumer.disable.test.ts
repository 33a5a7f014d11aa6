import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { notifications, storeSettings, users, webhookDeliveries, webhookEndpoints, type WebhookEndpointRow } from '../../src/db/schema';
import { ID_PREFIX, newId } from '../../src/lib/ids';
import { disableIfFailingTooLong } from '../../src/webhooks/endpoint-health';
import { db, insertUser } from '../helpers';
import { closedUrl, insertEndpoint, insertEvent, openChannel, runQueue } from './receiver-setup';

// Switching off endpoints that keep failing, and telling the admins. The tests of this file run in
// order on one storage: first without any admin user, then with some.

const hoursAgo = (h: number) => new Date(Date.now() - h * 3600_000).toISOString();
const endpointRow = async (id: string) => (await db().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)))[0]!;
const noticesFor = async (endpointId: string) =>
  (await db().select().from(notifications).where(eq(notifications.template, 'webhook_endpoint_disabled'))).filter((n) => n.data.endpointId === endpointId);

async function failingDelivery(endpoint: Partial<WebhookEndpointRow>) {
  const channel = await openChannel({ failFirst: 1000, failStatus: 503 });
  const row = await insertEndpoint({ url: channel.url, events: ['order.placed'], ...endpoint });
  const event = await insertEvent('order.placed', { orderId: 'ord_failing' });
  const [delivery] = await db()
    .insert(webhookDeliveries)
    .values({ id: newId(ID_PREFIX.webhookDelivery), endpointId: row.id, eventId: event.id, eventType: event.type })
    .returning();
  return { channel, endpoint: row, delivery: delivery! };
}
const deliver = (deliveryId: string) => runQueue('webhook-deliveries', [{ body: { deliveryId }, attempts: 3 }]);

afterEach(() => vi.restoreAllMocks());

describe('disabling failing endpoints', () => {
  it('marks when an endpoint starts failing, and does not disable it inside the window', async () => {
    const { endpoint, delivery } = await failingDelivery({});
    expect((await deliver(delivery.id)).retried()).toBe(true);
    const first = await endpointRow(endpoint.id);
    expect(first.failingSince).toEqual(expect.any(String));
    expect(first.active).toBe(true);
    // A later failure keeps the start of the run.
    await deliver(delivery.id);
    expect((await endpointRow(endpoint.id)).failingSince).toBe(first.failingSince);

    const recent = await failingDelivery({ failingSince: hoursAgo(71) });
    await deliver(recent.delivery.id);
    expect((await endpointRow(recent.endpoint.id)).active).toBe(true);
    expect(await noticesFor(recent.endpoint.id)).toEqual([]);
  });

  it('with no admin user, disables after WEBHOOK_DISABLE_AFTER_HOURS and tells the store contact email', async () => {
    expect(await db().select().from(users).where(eq(users.roleId, 'admin'))).toEqual([]);
    await db().update(storeSettings).set({ contactEmail: 'owner@shop.test' }).where(eq(storeSettings.id, 'store'));
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const failingSince = hoursAgo(73);
    const { endpoint, delivery } = await failingDelivery({ failingSince });

    const run = await deliver(delivery.id);
    expect(run.retried()).toBe(true);
    const disabled = await endpointRow(endpoint.id);
    expect(disabled).toMatchObject({ active: false, disabledAt: expect.any(String), disabledReason: `failing since ${failingSince}: HTTP 503` });
    const notices = await noticesFor(endpoint.id);
    expect(notices).toEqual([
      expect.objectContaining({
        id: expect.stringMatching(/^ntf_/),
        channel: 'email',
        recipient: 'owner@shop.test',
        template: 'webhook_endpoint_disabled',
        status: 'queued',
        subject: `Webhook endpoint disabled: ${endpoint.url}`,
      }),
    ]);
    expect(notices[0]!.body).toContain(endpoint.url);
    expect(notices[0]!.body).toContain(`since ${failingSince}`);
    expect(notices[0]!.body).toContain('HTTP 503');
    const line = log.mock.calls.map((args) => String(args[0])).find((l) => l.includes('webhook endpoint disabled'));
    expect(JSON.parse(line!)).toMatchObject({ level: 'error', message: 'webhook endpoint disabled', endpointId: endpoint.id, url: endpoint.url, failingSince, notified: 1 });

    // The next message for it finds the endpoint inactive: no request, the delivery failed, no second notice.
    const next = await deliver(delivery.id);
    expect(next.acked()).toBe(true);
    expect((await db().select().from(webhookDeliveries).where(eq(webhookDeliveries.id, delivery.id)))[0]).toMatchObject({ status: 'failed', lastError: 'endpoint inactive' });
    expect(await noticesFor(endpoint.id)).toHaveLength(1);
  });

  it('with neither admins nor a contact email, still disables and logs', async () => {
    await db().update(storeSettings).set({ contactEmail: null }).where(eq(storeSettings.id, 'store'));
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const endpoint = await insertEndpoint({ url: closedUrl(), failingSince: hoursAgo(100) });
    expect(await disableIfFailingTooLong(db(), { endpoint, problem: 'network error: refused', disableAfterHours: 72, now: new Date() })).toBe(true);
    expect((await endpointRow(endpoint.id)).active).toBe(false);
    expect(await noticesFor(endpoint.id)).toEqual([]);
  });

  it('notifies every active admin once, even when consumers race to disable the same endpoint', async () => {
    await db().update(storeSettings).set({ contactEmail: 'owner@shop.test' }).where(eq(storeSettings.id, 'store'));
    const admins = [await insertUser({ role: 'admin' }), await insertUser({ role: 'admin' })].map((a) => a.user.email);
    const retired = await insertUser({ role: 'admin' });
    await db().update(users).set({ status: 'disabled' }).where(eq(users.id, retired.user.id));
    await insertUser({ role: 'customer' });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);

    const failingSince = hoursAgo(80);
    const endpoint = await insertEndpoint({ url: closedUrl(), failingSince });
    const now = new Date();
    const input = { endpoint, problem: 'HTTP 500', disableAfterHours: 72 };
    // Two at the same millisecond and one a little later: exactly one of them disables.
    const results = await Promise.all([
      disableIfFailingTooLong(db(), { ...input, now }),
      disableIfFailingTooLong(db(), { ...input, now }),
      disableIfFailingTooLong(db(), { ...input, now: new Date(now.getTime() + 5) }),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const notices = await noticesFor(endpoint.id);
    expect(notices.map((n) => n.recipient).sort()).toEqual(admins.sort());
    expect((await endpointRow(endpoint.id)).disabledReason).toBe(`failing since ${failingSince}: HTTP 500`);
  });

  it('respects WEBHOOK_DISABLE_AFTER_HOURS, and a success ends the failing run', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const short = await failingDelivery({ failingSince: hoursAgo(2) });
    await runQueue('webhook-deliveries', [{ body: { deliveryId: short.delivery.id } }], { WEBHOOK_DISABLE_AFTER_HOURS: '1' });
    expect((await endpointRow(short.endpoint.id)).active).toBe(false);

    const channel = await openChannel();
    const recovering = await insertEndpoint({ url: channel.url, failingSince: hoursAgo(50) });
    const event = await insertEvent('order.placed', {});
    const [delivery] = await db()
      .insert(webhookDeliveries)
      .values({ id: newId(ID_PREFIX.webhookDelivery), endpointId: recovering.id, eventId: event.id, eventType: event.type })
      .returning();
    expect((await deliver(delivery!.id)).acked()).toBe(true);
    expect(await endpointRow(recovering.id)).toMatchObject({ active: true, failingSince: null });
  });
});
