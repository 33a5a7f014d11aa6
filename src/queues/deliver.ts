import { and, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { createDb, type Database } from '../db/client';
import { events, webhookAttempts, webhookDeliveries, webhookEndpoints, type WebhookEndpointRow } from '../db/schema';
import { numberSetting, type Bindings } from '../env';
import { ID_PREFIX, newId } from '../lib/ids';
import { hasRetryLeft, retryDelaySeconds } from '../webhooks/backoff';
import { DEFAULT_DISABLE_AFTER_HOURS, disableIfFailingTooLong } from '../webhooks/endpoint-health';
import type { DeliveryMessage } from '../webhooks/messages';
import { eventPayload } from '../webhooks/payload';
import { deliveryHeaders } from '../webhooks/signature';
import { eachMessage, log, type Outcome } from './each-message';
import { postDelivery } from './post-delivery';

export type DeliveryEnv = Pick<Bindings, 'DB' | 'NOTIFICATIONS_QUEUE' | 'WEBHOOK_RETRY_BASE_SECONDS' | 'WEBHOOK_DISABLE_AFTER_HOURS' | 'WEBHOOK_TIMEOUT_MS'>;

interface Settings {
  retryBaseSeconds: number;
  disableAfterHours: number;
  timeoutMs: number;
}

/** Deliveries of one batch in flight at once (a batch holds at most 10, wrangler.toml). */
const CONCURRENCY = 10;

/** The `webhook-deliveries` consumer: one POST per message, each message acked or retried on its own. */
export async function deliverBatch(batch: MessageBatch<DeliveryMessage>, env: DeliveryEnv): Promise<void> {
  const db = createDb(env.DB);
  const settings: Settings = {
    retryBaseSeconds: numberSetting(env.WEBHOOK_RETRY_BASE_SECONDS, 30),
    disableAfterHours: numberSetting(env.WEBHOOK_DISABLE_AFTER_HOURS, DEFAULT_DISABLE_AFTER_HOURS),
    timeoutMs: numberSetting(env.WEBHOOK_TIMEOUT_MS, 10_000),
  };
  await eachMessage(batch, CONCURRENCY, (message) => deliver(db, env, settings, message), (message, error) => {
    log('error', 'webhook delivery failed before recording its attempt; retrying', { deliveryId: message.body?.deliveryId, attempts: message.attempts, error: String(error) });
    return { retryAfterSeconds: retryDelaySeconds(message.attempts, settings.retryBaseSeconds) };
  });
}

async function deliver(db: Database, env: DeliveryEnv, settings: Settings, message: Message<DeliveryMessage>): Promise<Outcome> {
  const deliveryId = message.body?.deliveryId;
  if (typeof deliveryId !== 'string') {
    log('warn', 'webhook-deliveries message without a deliveryId; dropped', { body: message.body });
    return 'ack';
  }
  // One joined query, one round trip. Not inside db.batch: D1 batch results are mapped by column
  // name, and these three tables share `id` and `created_at`.
  const [row] = await db
    .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints, event: events })
    .from(webhookDeliveries)
    .leftJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .leftJoin(events, eq(events.id, webhookDeliveries.eventId))
    .where(eq(webhookDeliveries.id, deliveryId));
  if (!row) {
    log('warn', 'webhook-deliveries message for an unknown delivery; dropped', { deliveryId });
    return 'ack';
  }
  const { delivery, endpoint, event } = row;
  // A duplicate message (a re-sent fan-out, a retried batch) after the success: nothing to send.
  if (delivery.status === 'succeeded') return 'ack';
  const now = new Date();
  if (!endpoint?.active) return giveUp(db, deliveryId, 'endpoint inactive', now);
  if (!event) return giveUp(db, deliveryId, 'event not found', now);

  const body = eventPayload(event);
  const headers = await deliveryHeaders({ secrets: signingSecrets(endpoint, now), deliveryId, eventType: event.type, body, now });
  const result = await postDelivery(endpoint.url, headers, body, settings.timeoutMs);

  const finishedAt = new Date(result.startedAt.getTime() + result.durationMs);
  const retryAfterSeconds = retryDelaySeconds(message.attempts, settings.retryBaseSeconds);
  const nextRetryAt = !result.ok && hasRetryLeft(message.attempts) ? new Date(finishedAt.getTime() + retryAfterSeconds * 1000).toISOString() : null;
  const problem = result.ok ? null : (result.error ?? `HTTP ${result.statusCode}`);
  const startedAt = result.startedAt.toISOString();
  await db.batch([
    db.insert(webhookAttempts).values({
      id: newId(ID_PREFIX.webhookAttempt, result.startedAt.getTime()),
      deliveryId,
      // Counted by the delivery, not the message: a redelivery is a new message but a later attempt.
      attempt: delivery.attempts + 1,
      startedAt,
      durationMs: result.durationMs,
      statusCode: result.statusCode,
      error: problem,
      responseExcerpt: result.responseExcerpt,
      nextRetryAt,
    }),
    db
      .update(webhookDeliveries)
      .set({
        attempts: sql`${webhookDeliveries.attempts} + 1`,
        status: result.ok ? 'succeeded' : 'retrying',
        lastStatusCode: result.statusCode,
        lastError: problem,
        lastAttemptAt: startedAt,
        nextRetryAt,
        ...(result.ok ? { deliveredAt: finishedAt.toISOString() } : {}),
        updatedAt: finishedAt.toISOString(),
      })
      .where(eq(webhookDeliveries.id, deliveryId)),
    result.ok
      ? db.update(webhookEndpoints).set({ failingSince: null }).where(and(eq(webhookEndpoints.id, endpoint.id), isNotNull(webhookEndpoints.failingSince)))
      : db.update(webhookEndpoints).set({ failingSince: startedAt }).where(and(eq(webhookEndpoints.id, endpoint.id), isNull(webhookEndpoints.failingSince))),
  ]);
  if (result.ok) return 'ack';

  try {
    await disableIfFailingTooLong(db, { endpoint, problem: problem!, disableAfterHours: settings.disableAfterHours, now: finishedAt }, env);
  } catch (error) {
    // The next failed attempt checks again; the delivery's own retry must not depend on this.
    log('error', 'checking whether to disable a failing webhook endpoint failed', { endpointId: endpoint.id, error: String(error) });
  }
  return { retryAfterSeconds };
}

/** The current secret, and the previous one while its rotation overlap lasts. */
function signingSecrets(endpoint: WebhookEndpointRow, now: Date): string[] {
  const overlap = endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now.toISOString();
  return overlap ? [endpoint.secret, endpoint.previousSecret!] : [endpoint.secret];
}

/** No attempt is possible: the delivery is failed for good (a redeliver can still send it later). */
async function giveUp(db: Database, deliveryId: string, reason: string, now: Date): Promise<Outcome> {
  const ts = now.toISOString();
  await db.update(webhookDeliveries).set({ status: 'failed', lastError: reason, nextRetryAt: null, updatedAt: ts }).where(eq(webhookDeliveries.id, deliveryId));
  log('warn', 'webhook delivery not sent', { deliveryId, reason });
  return 'ack';
}
