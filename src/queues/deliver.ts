import { eq, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { createDb, type Database } from '../db/client';
import { compiled, type Slot } from '../db/compiled';
import { field, inJson, jsonEach, jsonRows, jsonValues, rowsFromJson } from '../db/json-rows';
import { events, webhookAttempts, webhookDeliveries, webhookEndpoints, type WebhookAttemptRow, type WebhookEndpointRow } from '../db/schema';
import type { Bindings } from '../env';
import { config } from '../config';
import { ID_PREFIX, newId } from '../lib/ids';
import { hasRetryLeft, retryDelaySeconds } from '../webhooks/backoff';
import { disableIfFailingTooLong, failingRuns, finishedAt, recordFailingRuns } from '../webhooks/endpoint-health';
import type { DeliveryMessage } from '../webhooks/messages';
import { eventPayload } from '../webhooks/payload';
import { deliveryHeaders } from '../webhooks/signature';
import { eachBatch, type Item, log, type Result, settledLimit, writeTogetherOrAlone } from './each-message';
import { postDelivery, type PostResult } from './post-delivery';

export type DeliveryEnv = Pick<Bindings, 'DB' | 'NOTIFICATIONS_QUEUE' | 'WEBHOOK_RETRY_BASE_SECONDS' | 'WEBHOOK_DISABLE_AFTER_HOURS' | 'WEBHOOK_TIMEOUT_MS'>;

interface Settings {
  retryBaseSeconds: number;
  disableAfterHours: number;
  timeoutMs: number;
}

/** Deliveries of one batch in flight at once (a batch holds at most 10, wrangler.toml). */
const CONCURRENCY = 10;

/**
 * The `webhook-deliveries` consumer, per batch: ONE read of every delivery with its endpoint and
 * event, the POSTs (concurrently), then ONE D1 batch recording every attempt, every delivery's new
 * state and each endpoint's failing run; each message is then acked or retried with its own backoff.
 * Two D1 round trips a batch, however many messages it holds.
 */
export async function deliverBatch(batch: MessageBatch<DeliveryMessage>, env: DeliveryEnv): Promise<void> {
  const db = createDb(env.DB);
  const { WEBHOOK_RETRY_BASE_SECONDS, WEBHOOK_DISABLE_AFTER_HOURS, WEBHOOK_TIMEOUT_MS } = config(env);
  const settings: Settings = { retryBaseSeconds: WEBHOOK_RETRY_BASE_SECONDS, disableAfterHours: WEBHOOK_DISABLE_AFTER_HOURS, timeoutMs: WEBHOOK_TIMEOUT_MS };
  await eachBatch(batch, {
    idField: 'deliveryId',
    handle: (items) => deliverAll(db, env, settings, items),
    onError: (message, error) => {
      log('error', 'webhook delivery failed before recording its attempt; retrying', { deliveryId: message.body?.deliveryId, attempts: message.attempts, error: String(error) });
      return { retryAfterSeconds: retryDelaySeconds(message.attempts, settings.retryBaseSeconds) };
    },
  });
}

/**
 * The batch's deliveries with their endpoints and events, by id. Run alone, not in a D1 batch: a
 * lone query comes back as arrays, so the three tables' shared column names (`id`, `created_at`)
 * cannot collide as they would in a batch's results, which D1 keys by column name.
 */
const readDeliveries = compiled((db, p: Slot<'ids'>) =>
  db
    .select({
      delivery: { id: webhookDeliveries.id, status: webhookDeliveries.status, attempts: webhookDeliveries.attempts, replayId: webhookDeliveries.replayId },
      endpoint: webhookEndpoints,
      event: {
        id: events.id,
        type: events.type,
        data: events.data,
        createdAt: events.createdAt,
        position: events.position,
        resourceId: events.resourceId,
        sequence: events.sequence,
      },
    })
    .from(webhookDeliveries)
    .leftJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .leftJoin(events, eq(events.id, webhookDeliveries.eventId))
    .where(inJson(webhookDeliveries.id, p('ids'))),
);
type DeliveryRow = Awaited<ReturnType<typeof readDeliveries>>[number];

/** What one delivery of the batch writes: an attempt, or giving up without one. */
type Part =
  | { kind: 'attempt'; id: string; endpoint: WebhookEndpointRow; result: PostResult; retryAfterSeconds: number; attempt: WebhookAttemptRow; state: DeliveryState }
  | { kind: 'give-up'; id: string; reason: string; at: string };

/** A delivery's row after an attempt (the fields `recordAttempts` reads). */
interface DeliveryState {
  id: string;
  status: 'succeeded' | 'retrying';
  lastStatusCode: number | null;
  lastError: string | null;
  lastAttemptAt: string;
  nextRetryAt: string | null;
  deliveredAt: string | null;
  updatedAt: string;
}

async function deliverAll(db: Database, env: DeliveryEnv, settings: Settings, items: Item<DeliveryMessage>[]): Promise<Map<string, Result>> {
  const results = new Map<string, Result>();
  const rows = new Map((await readDeliveries(db, { ids: JSON.stringify(items.map((item) => item.id)) })).map((row) => [row.delivery.id, row]));

  const toSend: { item: Item<DeliveryMessage>; row: DeliveryRow & { endpoint: WebhookEndpointRow; event: NonNullable<DeliveryRow['event']> } }[] = [];
  const parts: Part[] = [];
  const now = new Date();
  for (const item of items) {
    const row = rows.get(item.id);
    if (!row) {
      log('warn', 'webhook-deliveries message for an unknown delivery; dropped', { deliveryId: item.id });
      results.set(item.id, 'ack');
    } else if (row.delivery.status === 'succeeded') {
      // A duplicate message (a re-sent fan-out, a retried batch) after the success: nothing to send.
      results.set(item.id, 'ack');
    } else if (!row.endpoint?.active) {
      parts.push({ kind: 'give-up', id: item.id, reason: 'endpoint inactive', at: now.toISOString() });
    } else if (!row.event) {
      parts.push({ kind: 'give-up', id: item.id, reason: 'event not found', at: now.toISOString() });
    } else {
      toSend.push({ item, row: { ...row, endpoint: row.endpoint, event: row.event } });
    }
  }

  const posted = await settledLimit(toSend, CONCURRENCY, async ({ item, row }) => {
    const body = eventPayload(row.event);
    const sentAt = new Date();
    const headers = await deliveryHeaders({
      secrets: signingSecrets(row.endpoint, sentAt),
      deliveryId: item.id,
      eventType: row.event.type,
      body,
      now: sentAt,
      replayId: row.delivery.replayId,
    });
    return postDelivery(row.endpoint.url, headers, body, settings.timeoutMs);
  });
  toSend.forEach(({ item, row }, i) => {
    const post = posted[i]!;
    if (post.status === 'rejected') results.set(item.id, { error: post.reason });
    else parts.push(attemptPart(item, row.delivery.attempts, row.endpoint, post.value, retryDelaySeconds(item.message.attempts, settings.retryBaseSeconds)));
  });

  const unrecorded = await writeTogetherOrAlone(parts, (some) => record(db, some));
  for (const part of parts) {
    if (unrecorded.has(part)) results.set(part.id, { error: unrecorded.get(part) });
    else if (part.kind === 'give-up') {
      log('warn', 'webhook delivery not sent', { deliveryId: part.id, reason: part.reason });
      results.set(part.id, 'ack');
    } else results.set(part.id, part.result.ok ? 'ack' : { retryAfterSeconds: part.retryAfterSeconds });
  }

  // An endpoint whose recorded results end in failure may have failed for too long now: checked
  // once per endpoint and batch. This reads D1 only for an endpoint failing longer than the window.
  const recorded = parts.filter((part): part is Extract<Part, { kind: 'attempt' }> => part.kind === 'attempt' && !unrecorded.has(part));
  for (const { endpoint, failing, restarted, last } of failingRuns(recorded)) {
    if (!failing || restarted) continue;
    try {
      await disableIfFailingTooLong(db, { endpoint, problem: problemOf(last), disableAfterHours: settings.disableAfterHours, now: finishedAt(last) }, env);
    } catch (error) {
      // The next failed attempt checks again; the deliveries' own retries must not depend on this.
      log('error', 'checking whether to disable a failing webhook endpoint failed', { endpointId: endpoint.id, error: String(error) });
    }
  }
  return results;
}

const problemOf = (result: PostResult) => result.error ?? `HTTP ${result.statusCode}`;

function attemptPart(item: Item<DeliveryMessage>, attemptsBefore: number, endpoint: WebhookEndpointRow, result: PostResult, retryAfterSeconds: number): Part {
  const finished = finishedAt(result);
  const nextRetryAt = !result.ok && hasRetryLeft(item.message.attempts) ? new Date(finished.getTime() + retryAfterSeconds * 1000).toISOString() : null;
  const problem = result.ok ? null : problemOf(result);
  const startedAt = result.startedAt.toISOString();
  return {
    kind: 'attempt',
    id: item.id,
    endpoint,
    result,
    retryAfterSeconds,
    attempt: {
      id: newId(ID_PREFIX.webhookAttempt, result.startedAt.getTime()),
      deliveryId: item.id,
      // Counted by the delivery, not the message: a redelivery is a new message but a later attempt.
      attempt: attemptsBefore + 1,
      startedAt,
      durationMs: result.durationMs,
      statusCode: result.statusCode,
      error: problem,
      responseExcerpt: result.responseExcerpt,
      nextRetryAt,
    },
    state: {
      id: item.id,
      status: result.ok ? 'succeeded' : 'retrying',
      lastStatusCode: result.statusCode,
      lastError: problem,
      lastAttemptAt: startedAt,
      nextRetryAt,
      deliveredAt: result.ok ? finished.toISOString() : null,
      updatedAt: finished.toISOString(),
    },
  };
}

const insertAttempts = compiled((db, p: Slot<'rows'>) => db.insert(webhookAttempts).select(rowsFromJson(webhookAttempts, p('rows'))));

const recordAttempts = compiled((db, p: Slot<'rows'>) =>
  db
    .update(webhookDeliveries)
    .set({
      attempts: sql`${webhookDeliveries.attempts} + 1`,
      status: field('status'),
      lastStatusCode: field('lastStatusCode'),
      lastError: field('lastError'),
      lastAttemptAt: field('lastAttemptAt'),
      nextRetryAt: field('nextRetryAt'),
      deliveredAt: sql`coalesce(${field('deliveredAt')}, ${webhookDeliveries.deliveredAt})`,
      updatedAt: field('updatedAt'),
    })
    .from(jsonEach(p('rows')))
    .where(eq(webhookDeliveries.id, field('id'))),
);

/** No attempt is possible: the delivery is failed for good (a redeliver can still send it later). */
const giveUp = compiled((db, p: Slot<'rows'>) =>
  db
    .update(webhookDeliveries)
    .set({ status: 'failed', lastError: field('reason'), nextRetryAt: null, updatedAt: field('at') })
    .from(jsonEach(p('rows')))
    .where(eq(webhookDeliveries.id, field('id'))),
);

/** One D1 batch: every attempt, every delivery's new state, each endpoint's run, every give-up. */
async function record(db: Database, parts: readonly Part[]): Promise<void> {
  const attempts = parts.filter((part): part is Extract<Part, { kind: 'attempt' }> => part.kind === 'attempt');
  const giveUps = parts.filter((part): part is Extract<Part, { kind: 'give-up' }> => part.kind === 'give-up');
  const statements: BatchItem<'sqlite'>[] = [];
  if (attempts.length > 0) {
    for (const rows of jsonRows(
      webhookAttempts,
      attempts.map((part) => part.attempt),
    ))
      statements.push(insertAttempts(db, { rows }) as BatchItem<'sqlite'>);
    for (const rows of jsonValues(attempts.map((part) => ({ ...part.state })))) statements.push(recordAttempts(db, { rows }) as BatchItem<'sqlite'>);
    statements.push(...recordFailingRuns(db, failingRuns(attempts)));
  }
  for (const rows of jsonValues(giveUps.map(({ id, reason, at }) => ({ id, reason, at })))) statements.push(giveUp(db, { rows }) as BatchItem<'sqlite'>);
  if (statements.length > 0) await db.batch(statements as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]]);
}

/** The current secret, and the previous one while its rotation overlap lasts. */
function signingSecrets(endpoint: WebhookEndpointRow, now: Date): string[] {
  const overlap = endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now.toISOString();
  return overlap ? [endpoint.secret, endpoint.previousSecret!] : [endpoint.secret];
}
