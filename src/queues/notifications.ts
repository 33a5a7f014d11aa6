import { and, eq, inArray, lt, notInArray, or, sql } from 'drizzle-orm';
import { createDb, type Database } from '../db/client';
import { notifications, type NotificationRow } from '../db/schema';
import { numberSetting, type Bindings } from '../env';
import type { NotificationMessage } from '../notifications/messages';
import { emailProvider, type ProviderEnv, type SendResult, smsProvider } from '../notifications/providers';
import { hasRetryLeft, retryDelaySeconds } from '../webhooks/backoff';
import { eachMessage, log, type Outcome } from './each-message';

export type NotificationEnv = Pick<Bindings, 'DB' | 'NOTIFICATIONS_EMAIL_FROM' | 'NOTIFICATIONS_RETRY_BASE_SECONDS'> & ProviderEnv;

/** `max_retries` of the notifications consumer in wrangler.toml (keep the two in step). */
export const NOTIFICATION_MAX_RETRIES = 5;
/** A message `sending` for longer than this was dropped by a consumer that died: another may take it. */
export const SENDING_LEASE_MS = 60_000;
const CONCURRENCY = 10;
const DEFAULT_FROM = 'Store <store@example.com>';
/** What a password-reset message keeps once a real provider has it: the link must not stay readable in the log. */
const REDACTED = '[redacted once sent: this message held a password-reset link]';
const SECRET_TEMPLATES = new Set(['password_reset']);

/** The `notifications` consumer: one provider call per message, each message acked or retried on its own. */
export async function sendNotificationBatch(batch: MessageBatch<NotificationMessage>, env: NotificationEnv): Promise<void> {
  const db = createDb(env.DB);
  const base = numberSetting(env.NOTIFICATIONS_RETRY_BASE_SECONDS, 30);
  await eachMessage(batch, CONCURRENCY, (message) => send(db, env, base, message), (message, error) => {
    log('error', 'sending a notification failed before recording it; retrying', { notificationId: message.body?.notificationId, attempts: message.attempts, error: String(error) });
    return { retryAfterSeconds: retryDelaySeconds(message.attempts, base) };
  });
}

/**
 * Takes the message for this consumer: queued or retrying, or `sending` by a consumer that has not
 * finished within the lease. One UPDATE, so of two queue messages for the same notification only
 * one sends at a time.
 */
async function claim(db: Database, id: string, now: Date): Promise<NotificationRow | undefined> {
  const expired = new Date(now.getTime() - SENDING_LEASE_MS).toISOString();
  const [row] = await db
    .update(notifications)
    .set({ status: 'sending', attempts: sql`${notifications.attempts} + 1`, lastAttemptAt: now.toISOString(), updatedAt: now.toISOString() })
    .where(and(eq(notifications.id, id), or(inArray(notifications.status, ['queued', 'retrying']), and(eq(notifications.status, 'sending'), lt(notifications.lastAttemptAt, expired)))))
    .returning();
  return row;
}

function deliver(env: NotificationEnv, row: NotificationRow): { provider: string; result: Promise<SendResult> } {
  if (row.channel === 'sms') {
    const provider = smsProvider(env);
    return { provider: provider.name, result: provider.send({ id: row.id, to: row.recipient, body: row.body }) };
  }
  const provider = emailProvider(env);
  const from = env.NOTIFICATIONS_EMAIL_FROM || DEFAULT_FROM;
  return { provider: provider.name, result: provider.send({ id: row.id, to: row.recipient, from, subject: row.subject ?? '', text: row.body, html: row.bodyHtml }) };
}

async function send(db: Database, env: NotificationEnv, retryBase: number, message: Message<NotificationMessage>): Promise<Outcome> {
  const id = message.body?.notificationId;
  if (typeof id !== 'string') {
    log('warn', 'notifications message without a notificationId; dropped', { body: message.body });
    return 'ack';
  }
  const now = new Date();
  const row = await claim(db, id, now);
  if (!row) {
    const [current] = await db.select({ status: notifications.status }).from(notifications).where(eq(notifications.id, id));
    // Another consumer is sending it right now: look again after the lease, in case it dies.
    if (current?.status === 'sending') return { retryAfterSeconds: Math.ceil(SENDING_LEASE_MS / 1000) };
    // Sent, skipped, failed for good, or unknown: nothing to do (a duplicate message).
    return 'ack';
  }

  const attempt = deliver(env, row);
  let result: SendResult;
  try {
    result = await attempt.result;
  } catch (error) {
    result = { ok: false, retryable: true, error: `${attempt.provider}: ${error instanceof Error ? error.message : String(error)}` };
  }
  const ts = new Date().toISOString();
  if (result.ok) {
    const redact = SECRET_TEMPLATES.has(row.template) && attempt.provider !== 'outbox';
    await db
      .update(notifications)
      .set({
        status: 'sent',
        provider: attempt.provider,
        providerMessageId: result.providerMessageId,
        lastError: null,
        sentAt: ts,
        updatedAt: ts,
        ...(redact ? { body: REDACTED, bodyHtml: null, data: {} } : {}),
      })
      .where(eq(notifications.id, id));
    return 'ack';
  }
  // The queue delivers it again unless this was its last try, or the provider refused it for good.
  const again = result.retryable && hasRetryLeft(message.attempts, NOTIFICATION_MAX_RETRIES);
  await db
    .update(notifications)
    .set({ status: again ? 'retrying' : 'failed', provider: attempt.provider, lastError: result.error, updatedAt: ts })
    .where(eq(notifications.id, id));
  log(again ? 'warn' : 'error', again ? 'notification not sent; retrying' : 'notification failed', { notificationId: id, channel: row.channel, provider: attempt.provider, attempts: row.attempts, error: result.error });
  return again ? { retryAfterSeconds: retryDelaySeconds(message.attempts, retryBase) } : 'ack';
}

/** The `notifications-dlq` consumer: a message whose retries ran out is recorded as failed, keeping its last error. */
export async function notificationDeadLetterBatch(batch: MessageBatch<NotificationMessage>, env: Pick<Bindings, 'DB'>): Promise<void> {
  const db = createDb(env.DB);
  await eachMessage(
    batch,
    batch.messages.length,
    async (message) => {
      const id = message.body?.notificationId;
      if (typeof id !== 'string') return 'ack';
      const ts = new Date().toISOString();
      await db
        .update(notifications)
        .set({ status: 'failed', lastError: sql`coalesce(${notifications.lastError}, 'retries exhausted')`, updatedAt: ts })
        .where(and(eq(notifications.id, id), notInArray(notifications.status, ['sent', 'skipped'])));
      log('warn', 'notification dead-lettered', { notificationId: id });
      return 'ack';
    },
    (message, error) => {
      log('error', 'recording a dead-lettered notification failed; retrying', { notificationId: message.body?.notificationId, error: String(error) });
      return {};
    },
  );
}
