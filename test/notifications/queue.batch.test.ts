import { env } from 'cloudflare:workers';
import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { notifications, type NotificationRow } from '../../src/db/schema';
import { type D1Metrics, measuredD1 } from '../../src/d1/metrics';
import { insertNotifications, notificationRow } from '../../src/notifications/planner';
import { db } from '../helpers';
import { openChannel, runQueue } from '../webhooks/receiver-setup';

// The notifications consumer works a whole batch at once (one D1 batch claims it, the provider
// calls, one statement records the results), yet settles each message on its own. D1 calls are
// counted through a wrapper of the binding handed to the consumer.

const template = {
  key: 'test_batch',
  event: 'order.placed',
  channel: 'email' as const,
  category: 'transactional' as const,
  subject: 'Order {{orderId}}',
  body: 'Order {{orderId}} is confirmed',
  bodyHtml: null,
};

async function queued(count: number): Promise<NotificationRow[]> {
  const rows = Array.from({ length: count }, (_, i) =>
    notificationRow({
      template,
      to: `batch-${i}-${crypto.randomUUID().slice(0, 8)}@example.test`,
      skip: null,
      userId: null,
      data: { orderId: `ord_${i}` },
      cause: crypto.randomUUID(),
      eventId: null,
    }),
  );
  expect(await insertNotifications(db(), rows)).toHaveLength(count);
  return rows;
}

function counted() {
  const metrics: D1Metrics = { rowsRead: 0, roundTrips: 0, unknown: 0 };
  return { metrics, DB: measuredD1(env.DB, metrics) };
}
const bodiesOf = (rows: { id: string }[], attempts = 1) => rows.map((row) => ({ body: { notificationId: row.id }, attempts }));
const stored = async (rows: { id: string }[]) =>
  new Map(
    (
      await db()
        .select()
        .from(notifications)
        .where(
          inArray(
            notifications.id,
            rows.map((r) => r.id),
          ),
        )
    ).map((row) => [row.id, row]),
  );

describe('the notifications queue, a batch at a time', () => {
  it('costs two D1 round trips whatever the batch holds: one claim, one record', async () => {
    for (const size of [1, 10]) {
      const rows = await queued(size);
      const { metrics, DB } = counted();
      const run = await runQueue('notifications', bodiesOf(rows), { DB });
      expect(run.result.explicitAcks).toHaveLength(size);
      expect(metrics.roundTrips, `a batch of ${size}`).toBe(2);
      const after = await stored(rows);
      for (const row of rows)
        expect(after.get(row.id)).toMatchObject({
          status: 'sent',
          attempts: 1,
          provider: 'outbox',
          providerMessageId: `outbox:${row.id}`,
          sentAt: expect.any(String),
          body: row.body,
        });
    }
  });

  it('retries a message the provider refused alone, while the others of the batch are recorded as sent', async () => {
    const resend = await openChannel({ failFirst: 1, failStatus: 500 });
    const rows = await queued(4);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { metrics, DB } = counted();
    const run = await runQueue('notifications', bodiesOf(rows, 2), {
      DB,
      NOTIFICATIONS_EMAIL_PROVIDER: 'resend',
      RESEND_API_KEY: 're_k',
      RESEND_API_URL: resend.url,
      NOTIFICATIONS_RETRY_BASE_SECONDS: '10',
    } as never);
    vi.restoreAllMocks();
    expect(metrics.roundTrips).toBe(2);
    const retried = [0, 1, 2, 3].filter((i) => run.retried(i));
    expect(retried).toHaveLength(1);
    expect([0, 1, 2, 3].filter((i) => run.acked(i))).toHaveLength(3);
    // Its own backoff: the second attempt of a 10 s base waits between 10 and 20 s.
    expect(run.delay(retried[0])).toBeGreaterThanOrEqual(10);
    expect(run.delay(retried[0])).toBeLessThanOrEqual(20);

    const after = await stored(rows);
    const failed = rows[retried[0]!]!;
    expect(after.get(failed.id)).toMatchObject({ status: 'retrying', attempts: 1, provider: 'resend', lastError: expect.stringMatching(/^resend: HTTP 500/), sentAt: null });
    for (const row of rows.filter((r) => r !== failed)) expect(after.get(row.id)).toMatchObject({ status: 'sent', attempts: 1, provider: 'resend', lastError: null });
    const requests = await resend.requests();
    expect(requests).toHaveLength(4);
    expect(requests.find((r) => r.answered === 500)!.headers['idempotency-key']).toBe(failed.id);
  });

  it('settles each message by its row: held by another consumer, already sent, unknown, or named twice', async () => {
    const [held, sent, fresh] = await queued(3);
    await db().update(notifications).set({ status: 'sending', lastAttemptAt: new Date().toISOString() }).where(eq(notifications.id, held!.id));
    await runQueue('notifications', bodiesOf([sent!]));
    const { metrics, DB } = counted();
    const run = await runQueue('notifications', [...bodiesOf([held!, sent!]), { body: { notificationId: 'ntf_missing' }, attempts: 1 }, ...bodiesOf([fresh!, fresh!])], { DB });
    expect(metrics.roundTrips).toBe(2);
    expect(run.retried(0)).toBe(true);
    expect(run.delay(0)).toBe(60);
    expect([1, 2, 3, 4].map((i) => run.acked(i))).toEqual([true, true, true, true]);
    const after = await stored([held!, sent!, fresh!]);
    expect(after.get(held!.id)).toMatchObject({ status: 'sending', attempts: 0 });
    expect(after.get(sent!.id)).toMatchObject({ status: 'sent', attempts: 1 });
    expect(after.get(fresh!.id)).toMatchObject({ status: 'sent', attempts: 1 });
  });
});
