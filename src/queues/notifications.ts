import { and, eq, inArray, lt, notInArray, or, sql } from 'drizzle-orm';
import { createDb, type Database } from '../db/client';
import { compiled, type Slot } from '../db/compiled';
import { field, inJson, jsonEach, jsonValues } from '../db/json-rows';
import { notifications, type NotificationRow } from '../db/schema';
import type { Bindings } from '../env';
import { config } from '../config';
import type { NotificationMessage } from '../notifications/messages';
import { type OutgoingMessage, outgoingMessage } from '../notifications/outgoing';
import { emailProvider, type ProviderEnv, type SendResult, smsProvider } from '../notifications/providers';
import { redact } from '../notifications/redaction';
import { hasRetryLeft, retryDelaySeconds } from '../webhooks/backoff';
import { eachBatch, type Item, log, type Result, settledLimit, writeTogetherOrAlone } from './each-message';

export type NotificationEnv = Pick<Bindings, 'DB' | 'NOTIFICATIONS_EMAIL_FROM' | 'NOTIFICATIONS_RETRY_BASE_SECONDS' | 'JWT_SECRET'> & ProviderEnv;

/** `max_retries` of the notifications consumer in wrangler.toml (keep the two in step). */
export const NOTIFICATION_MAX_RETRIES = 5;
/** A message `sending` for longer than this was dropped by a consumer that died: another may take it. */
export const SENDING_LEASE_MS = 60_000;
const CONCURRENCY = 10;

/**
 * The `notifications` consumer, per batch: ONE D1 batch claims every message of it (and reads the
 * state of those it could not claim), the provider calls run concurrently, and ONE statement records
 * every result; each message is then acked or retried with its own backoff. Two D1 round trips a
 * batch, however many messages it holds.
 */
export async function sendNotificationBatch(batch: MessageBatch<NotificationMessage>, env: NotificationEnv): Promise<void> {
  const db = createDb(env.DB);
  const base = config(env).NOTIFICATIONS_RETRY_BASE_SECONDS;
  await eachBatch(batch, {
    idField: 'notificationId',
    handle: (items) => sendAll(db, env, base, items),
    onError: (message, error) => {
      log('error', 'sending a notification failed before recording it; retrying', {
        notificationId: message.body?.notificationId,
        attempts: message.attempts,
        error: String(error),
      });
      return { retryAfterSeconds: retryDelaySeconds(message.attempts, base) };
    },
  });
}

/**
 * Takes the messages for this consumer: queued or retrying, or `sending` by a consumer that has not
 * finished within the lease. One UPDATE, so of two queue messages for the same notification only
 * one sends at a time; it returns the rows it took.
 */
const claim = compiled((db, p: Slot<'ids' | 'now' | 'expired'>) =>
  db
    .update(notifications)
    .set({ status: 'sending', attempts: sql`${notifications.attempts} + 1`, lastAttemptAt: sql`${p('now')}`, updatedAt: sql`${p('now')}` })
    .where(
      and(
        inJson(notifications.id, p('ids')),
        or(inArray(notifications.status, ['queued', 'retrying']), and(eq(notifications.status, 'sending'), lt(notifications.lastAttemptAt, sql`${p('expired')}`))),
      ),
    )
    .returning(),
);
/** Read right after the claim, in its batch: a row not taken but `sending` is held by another consumer. */
const statusesOf = compiled((db, p: Slot<'ids'>) =>
  db
    .select({ id: notifications.id, status: notifications.status })
    .from(notifications)
    .where(inJson(notifications.id, p('ids'))),
);

/**
 * Every result of the batch: sent (provider, its message id, the time) or not (retrying or failed,
 * with the error). The message's texts are never written here: a password-reset email's row keeps
 * the redacted copy it was written with (src/notifications/outgoing.ts).
 */
const recordResults = compiled((db, p: Slot<'rows'>) =>
  db
    .update(notifications)
    .set({
      status: field('status'),
      provider: field('provider'),
      providerMessageId: sql`iif(${field('sent')}, ${field('providerMessageId')}, ${notifications.providerMessageId})`,
      lastError: field('lastError'),
      sentAt: sql`iif(${field('sent')}, ${field('at')}, ${notifications.sentAt})`,
      updatedAt: field('at'),
    })
    .from(jsonEach(p('rows')))
    .where(eq(notifications.id, field('id'))),
);

function deliver(env: NotificationEnv, row: NotificationRow, message: OutgoingMessage): { provider: string; result: Promise<SendResult> } {
  const confidential = message.secret !== null;
  if (row.channel === 'sms') {
    const provider = smsProvider(env);
    return { provider: provider.name, result: provider.send({ id: row.id, to: row.recipient, body: message.body, confidential }) };
  }
  const provider = emailProvider(env);
  const from = config(env).NOTIFICATIONS_EMAIL_FROM;
  return {
    provider: provider.name,
    result: provider.send({ id: row.id, to: row.recipient, from, subject: message.subject ?? '', text: message.body, html: message.bodyHtml, confidential }),
  };
}

/** What the provider was given and what it answered; a secret the provider echoed in an error stays out of the log and the row. */
async function attemptSend(env: NotificationEnv, row: NotificationRow): Promise<{ provider: string; result: SendResult }> {
  const message = await outgoingMessage(env, row);
  if ('error' in message) {
    const provider = row.channel === 'sms' ? smsProvider(env) : emailProvider(env);
    return { provider: provider.name, result: { ok: false, retryable: false, error: message.error } };
  }
  const attempt = deliver(env, row, message);
  let result: SendResult;
  try {
    result = await attempt.result;
  } catch (error) {
    result = { ok: false, retryable: true, error: `${attempt.provider}: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (!result.ok && message.secret) result = { ...result, error: redact(result.error, message.secret) };
  return { provider: attempt.provider, result };
}

/** One claimed message's send: what the provider said, and what to record. */
interface Sent {
  item: Item<NotificationMessage>;
  row: NotificationRow;
  provider: string;
  result: SendResult;
  again: boolean;
}

async function sendAll(db: Database, env: NotificationEnv, retryBase: number, items: Item<NotificationMessage>[]): Promise<Map<string, Result>> {
  const results = new Map<string, Result>();
  const now = new Date();
  const ids = JSON.stringify(items.map((item) => item.id));
  const [claimed, statuses] = await db.batch([
    claim(db, { ids, now: now.toISOString(), expired: new Date(now.getTime() - SENDING_LEASE_MS).toISOString() }),
    statusesOf(db, { ids }),
  ]);
  const taken = new Map(claimed.map((row) => [row.id, row]));
  const status = new Map(statuses.map((row) => [row.id, row.status]));
  const toSend: { item: Item<NotificationMessage>; row: NotificationRow }[] = [];
  for (const item of items) {
    const row = taken.get(item.id);
    if (row) toSend.push({ item, row });
    // Another consumer is sending it right now: look again after the lease, in case it dies.
    else if (status.get(item.id) === 'sending') results.set(item.id, { retryAfterSeconds: Math.ceil(SENDING_LEASE_MS / 1000) });
    // Sent, skipped, failed for good, or unknown: nothing to do (a duplicate message).
    else results.set(item.id, 'ack');
  }

  const attempts = await settledLimit(toSend, CONCURRENCY, async ({ item, row }): Promise<Sent> => {
    const { provider, result } = await attemptSend(env, row);
    // The queue delivers it again unless this was its last try, or the provider refused it for good.
    const again = !result.ok && result.retryable && hasRetryLeft(item.message.attempts, NOTIFICATION_MAX_RETRIES);
    return { item, row, provider, result, again };
  });
  const sent: Sent[] = [];
  attempts.forEach((attempt, i) => {
    if (attempt.status === 'fulfilled') sent.push(attempt.value);
    else results.set(toSend[i]!.item.id, { error: attempt.reason });
  });

  const unrecorded = await writeTogetherOrAlone(sent, (some) => record(db, some));
  for (const one of sent) {
    const { item, row, provider, result, again } = one;
    if (unrecorded.has(one)) {
      results.set(item.id, { error: unrecorded.get(one) });
    } else if (result.ok) {
      results.set(item.id, 'ack');
    } else {
      log(again ? 'warn' : 'error', again ? 'notification not sent; retrying' : 'notification failed', {
        notificationId: row.id,
        channel: row.channel,
        provider,
        attempts: row.attempts,
        error: result.error,
      });
      results.set(item.id, again ? { retryAfterSeconds: retryDelaySeconds(item.message.attempts, retryBase) } : 'ack');
    }
  }
  return results;
}

async function record(db: Database, sent: readonly Sent[]): Promise<void> {
  const at = new Date().toISOString();
  const rows = sent.map(({ row, provider, result, again }) => ({
    id: row.id,
    status: result.ok ? 'sent' : again ? 'retrying' : 'failed',
    provider,
    sent: result.ok ? 1 : 0,
    providerMessageId: result.ok ? result.providerMessageId : null,
    lastError: result.ok ? null : result.error,
    at,
  }));
  const statements = jsonValues(rows).map((json) => recordResults(db, { rows: json }));
  if (statements.length > 0) await db.batch(statements as [(typeof statements)[number], ...typeof statements]);
}

/** Every notification of the batch not sent or skipped, failed for good; one statement. */
const markFailed = compiled((db, p: Slot<'ids' | 'at'>) =>
  db
    .update(notifications)
    .set({ status: 'failed', lastError: sql`coalesce(${notifications.lastError}, 'retries exhausted')`, updatedAt: sql`${p('at')}` })
    .where(and(inJson(notifications.id, p('ids')), notInArray(notifications.status, ['sent', 'skipped']))),
);

/** The `notifications-dlq` consumer: a message whose retries ran out is recorded as failed, keeping its last error. One D1 call a batch. */
export async function notificationDeadLetterBatch(batch: MessageBatch<NotificationMessage>, env: Pick<Bindings, 'DB'>): Promise<void> {
  const db = createDb(env.DB);
  await eachBatch(batch, {
    idField: 'notificationId',
    handle: async (items) => {
      await markFailed(db, { ids: JSON.stringify(items.map((item) => item.id)), at: new Date().toISOString() });
      for (const { id } of items) log('warn', 'notification dead-lettered', { notificationId: id });
      return new Map(items.map((item) => [item.id, 'ack']));
    },
    onError: (message, error) => {
      log('error', 'recording a dead-lettered notification failed; retrying', { notificationId: message.body?.notificationId, error: String(error) });
      return {};
    },
  });
}
