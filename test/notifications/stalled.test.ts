import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { notifications } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { requeueStalledNotifications } from '../../src/notifications/stalled';
import { db } from '../helpers';

/** A queue that records what is sent to it, to see which notifications the sweep sends again. */
function recording() {
  const sent: string[] = [];
  const queue = {
    async sendBatch(messages: Iterable<{ body: { notificationId: string } }>) {
      for (const m of messages) sent.push(m.body.notificationId);
    },
  } as unknown as Queue;
  return { sent, queue };
}

it('sends again notifications still queued and untried minutes later, once, and leaves the others alone', async () => {
  const now = new Date();
  const ago = (minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();
  const row = (status: 'queued' | 'sent', attempts: number, at: string) => ({
    id: newId('ntf'),
    channel: 'email' as const,
    recipient: 'stalled@example.com',
    template: 'order_confirmation',
    body: 'Thanks',
    status,
    attempts,
    createdAt: at,
    updatedAt: at,
  });
  const stalled = row('queued', 0, ago(5));
  const fresh = row('queued', 0, ago(0.5));
  const tried = row('queued', 1, ago(5));
  const sent = row('sent', 1, ago(10));
  await db().insert(notifications).values([stalled, fresh, tried, sent]);

  const first = recording();
  expect(await requeueStalledNotifications({ DB: env.DB, NOTIFICATIONS_QUEUE: first.queue }, now)).toBeGreaterThanOrEqual(1);
  expect(first.sent).toContain(stalled.id);
  expect(first.sent).not.toContain(fresh.id);
  expect(first.sent).not.toContain(tried.id);
  expect(first.sent).not.toContain(sent.id);
  const [touched] = await db().select().from(notifications).where(eq(notifications.id, stalled.id));
  expect(touched!.updatedAt).toBe(now.toISOString());

  const second = recording();
  await requeueStalledNotifications({ DB: env.DB, NOTIFICATIONS_QUEUE: second.queue }, new Date(now.getTime() + 60_000));
  expect(second.sent).not.toContain(stalled.id);
});
