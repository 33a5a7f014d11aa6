import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { notifications, type NotificationRow } from '../../src/db/schema';
import { insertNotifications, notificationRow } from '../../src/notifications/planner';
import { db } from '../helpers';
import { openChannel, runQueue } from '../webhooks/receiver-setup';

// The notifications consumer on real batches, with the real HTTP providers aimed at the loopback
// receiver (its base URL is configurable), so the requests they make are the ones Resend and
// Twilio would get.

const template = (channel: 'email' | 'sms') => ({
  key: 'test_message',
  event: 'order.placed',
  channel,
  category: 'transactional' as const,
  subject: channel === 'email' ? 'Order {{orderId}}' : null,
  body: 'Your order {{orderId}} is on its way',
  bodyHtml: channel === 'email' ? '<p>Order <b>{{orderId}}</b></p>' : null,
});

async function queued(channel: 'email' | 'sms', to: string): Promise<NotificationRow> {
  const row = notificationRow({ template: template(channel), to, skip: null, userId: null, data: { orderId: 'ord_42' }, cause: crypto.randomUUID(), eventId: null });
  await insertNotifications(db(), [row]);
  return row;
}
const stored = async (id: string) => (await db().select().from(notifications).where(eq(notifications.id, id)))[0]!;
const send = (id: string, attempts: number, env: Record<string, string>) => runQueue('notifications', [{ body: { notificationId: id }, attempts }], env as never);

describe('the notifications queue', () => {
  it('retries a provider that fails (500), recording each failure, then records the send', async () => {
    const resend = await openChannel({ failFirst: 2, failStatus: 500 });
    const env = { NOTIFICATIONS_EMAIL_PROVIDER: 'resend', RESEND_API_KEY: 're_test_key', RESEND_API_URL: resend.url, NOTIFICATIONS_EMAIL_FROM: 'Shop <shop@example.test>' };
    const row = await queued('email', 'ada@example.test');

    const first = await send(row.id, 1, env);
    expect(first.retried()).toBe(true);
    expect(first.delay()).toBeGreaterThanOrEqual(1);
    expect(await stored(row.id)).toMatchObject({ status: 'retrying', attempts: 1, provider: 'resend', lastError: expect.stringMatching(/^resend: HTTP 500/) });
    expect((await api500Filter()).map((n) => n.id)).not.toContain(row.id);

    expect((await send(row.id, 2, env)).retried()).toBe(true);
    expect(await stored(row.id)).toMatchObject({ status: 'retrying', attempts: 2 });

    const third = await send(row.id, 3, env);
    expect(third.acked()).toBe(true);
    expect(await stored(row.id)).toMatchObject({ status: 'sent', attempts: 3, lastError: null, sentAt: expect.any(String) });

    const requests = await resend.requests();
    expect(requests).toHaveLength(3);
    const last = requests[2]!;
    expect(last.path).toMatch(/\/emails$/);
    expect(last.headers.authorization).toBe('Bearer re_test_key');
    expect(last.headers['idempotency-key']).toBe(row.id);
    expect(JSON.parse(last.body)).toEqual({
      from: 'Shop <shop@example.test>',
      to: ['ada@example.test'],
      subject: 'Order ord_42',
      text: 'Your order ord_42 is on its way',
      html: '<p>Order <b>ord_42</b></p>',
    });

    // A duplicate message after the send sends nothing.
    expect((await send(row.id, 1, env)).acked()).toBe(true);
    expect(await resend.requests()).toHaveLength(3);
  });

  it('marks the message failed when its retries run out, and at once for a permanent refusal (4xx)', async () => {
    const down = await openChannel({ failFirst: 100, failStatus: 503 });
    const env = { NOTIFICATIONS_EMAIL_PROVIDER: 'resend', RESEND_API_KEY: 'k', RESEND_API_URL: down.url };
    const row = await queued('email', 'late@example.test');
    const last = await send(row.id, 6, env);
    expect(last.acked()).toBe(true);
    expect(await stored(row.id)).toMatchObject({ status: 'failed', lastError: expect.stringMatching(/HTTP 503/) });

    const refusing = await openChannel({ failFirst: 100, failStatus: 422 });
    const bad = await queued('email', 'not-an-inbox@example.test');
    expect((await send(bad.id, 1, { ...env, RESEND_API_URL: refusing.url })).acked()).toBe(true);
    expect(await stored(bad.id)).toMatchObject({ status: 'failed', attempts: 1, lastError: expect.stringMatching(/HTTP 422/) });

    const listed = await api500Filter();
    expect(listed.map((n) => n.id)).toEqual(expect.arrayContaining([row.id, bad.id]));
  });

  it("sends SMS through Twilio's Messages API, form-encoded with Basic auth", async () => {
    const twilio = await openChannel({ answerBody: JSON.stringify({ sid: 'SM123' }) });
    const env = { NOTIFICATIONS_SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: 'AC_test', TWILIO_AUTH_TOKEN: 'secret', TWILIO_FROM: '+15550001111', TWILIO_API_URL: twilio.url };
    const row = await queued('sms', '+4915112345678');
    expect((await send(row.id, 1, env)).acked()).toBe(true);
    expect(await stored(row.id)).toMatchObject({ status: 'sent', provider: 'twilio', providerMessageId: 'SM123' });
    const [request] = await twilio.requests();
    expect(request!.path).toMatch(/\/2010-04-01\/Accounts\/AC_test\/Messages\.json$/);
    expect(request!.headers.authorization).toBe(`Basic ${btoa('AC_test:secret')}`);
    expect(request!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(request!.body))).toEqual({ To: '+4915112345678', Body: 'Your order ord_42 is on its way', From: '+15550001111' });
  });

  it('fails a message at once, saying why, when a provider is chosen without its secrets', async () => {
    const row = await queued('sms', '+15550002222');
    expect((await send(row.id, 1, { NOTIFICATIONS_SMS_PROVIDER: 'twilio' })).acked()).toBe(true);
    expect(await stored(row.id)).toMatchObject({ status: 'failed', lastError: 'twilio: TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_FROM not set' });
  });

  it('the outbox provider keeps the message readable; the dead-letter queue records failure', async () => {
    const row = await queued('email', 'outbox@example.test');
    expect((await send(row.id, 1, {})).acked()).toBe(true);
    expect(await stored(row.id)).toMatchObject({ status: 'sent', provider: 'outbox', providerMessageId: `outbox:${row.id}`, body: 'Your order ord_42 is on its way' });

    const lost = await queued('email', 'lost@example.test');
    const dead = await runQueue('notifications-dlq', [{ body: { notificationId: lost.id } }, { body: { notificationId: row.id } }]);
    expect(dead.acked(0) && dead.acked(1)).toBe(true);
    expect(await stored(lost.id)).toMatchObject({ status: 'failed', lastError: 'retries exhausted' });
    expect((await stored(row.id)).status).toBe('sent');
  });

  it('does not send a message another consumer holds (lease), and records a notification only once per cause', async () => {
    const row = await queued('email', 'lease@example.test');
    await db().update(notifications).set({ status: 'sending', lastAttemptAt: new Date().toISOString() }).where(eq(notifications.id, row.id));
    const held = await send(row.id, 1, {});
    expect(held.retried()).toBe(true);
    expect((await stored(row.id)).attempts).toBe(0);
    const again = { ...row, id: 'ntf_other' };
    expect(await insertNotifications(db(), [again])).toEqual([]);
  });
});

async function api500Filter(): Promise<{ id: string }[]> {
  const { adminKey, api } = await import('../helpers');
  const res = await api('/api/notifications?status=failed&limit=100', { key: await adminKey() });
  expect(res.status).toBe(200);
  return res.body.data;
}
