import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { timestamps } from './columns';

// ---------------------------------------------------------------------------------------------
// Webhooks: endpoints, one delivery per event and endpoint, and every attempt at it.

export const webhookEndpoints = sqliteTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    url: text('url').notNull(),
    /** Event kinds delivered, or `["*"]` for all. */
    events: text('events', { mode: 'json' }).$type<string[]>().notNull(),
    description: text('description'),
    active: integer('active', { mode: 'boolean' }).notNull().default(true),
    /** Signs every delivery (`whsec_` + base64 of 32 random bytes). Shown once, at creation and rotation. */
    secret: text('secret').notNull(),
    /** The secret before the last rotation, which also signs until `previousSecretExpiresAt`. */
    previousSecret: text('previous_secret'),
    previousSecretExpiresAt: text('previous_secret_expires_at'),
    /** When the current run of failed deliveries began; null while deliveries succeed. */
    failingSince: text('failing_since'),
    /** Set when the endpoint was switched off for failing too long (it is then inactive). */
    disabledAt: text('disabled_at'),
    disabledReason: text('disabled_reason'),
    ...timestamps,
  },
  (t) => [index('webhook_endpoints_created_idx').on(t.createdAt, t.id)],
);

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'succeeded', 'retrying', 'failed'] as const;

/** One event for one endpoint; its id is `X-Store-Delivery` and `webhook-id`, the same on every retry. */
export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventId: text('event_id').notNull(),
    eventType: text('event_type').notNull(),
    status: text('status', { enum: WEBHOOK_DELIVERY_STATUSES }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    lastAttemptAt: text('last_attempt_at'),
    nextRetryAt: text('next_retry_at'),
    deliveredAt: text('delivered_at'),
    /** The replay that created or re-queued this delivery (`X-Store-Replay`); null for a live delivery or after a redeliver. */
    replayId: text('replay_id'),
    ...timestamps,
  },
  (t) => [uniqueIndex('webhook_deliveries_event_endpoint_idx').on(t.eventId, t.endpointId), index('webhook_deliveries_endpoint_created_idx').on(t.endpointId, t.createdAt)],
);

export const webhookAttempts = sqliteTable(
  'webhook_attempts',
  {
    id: text('id').primaryKey(),
    deliveryId: text('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attempt: integer('attempt').notNull(),
    startedAt: text('started_at').notNull(),
    durationMs: integer('duration_ms').notNull(),
    /** Null when no response came (timeout, network error). */
    statusCode: integer('status_code'),
    error: text('error'),
    /** The first 1 KB of the response body. */
    responseExcerpt: text('response_excerpt'),
    /** When the next attempt is due; null after the last one or a success. */
    nextRetryAt: text('next_retry_at'),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId, t.attempt)],
);

export const WEBHOOK_REPLAY_STATUSES = ['queued', 'running', 'completed', 'failed'] as const;

/**
 * A replay of past events to one endpoint (src/webhooks/replay.ts): the window and kinds asked for,
 * and how far the `webhook-replays` queue has got. `cursor` is the last event taken (`createdAt id`);
 * the counters move in the same batch as the cursor, so they are exact at every moment.
 */
export const webhookReplays = sqliteTable(
  'webhook_replays',
  {
    id: text('id').primaryKey(),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    status: text('status', { enum: WEBHOOK_REPLAY_STATUSES }).notNull().default('queued'),
    from: text('from').notNull(),
    to: text('to').notNull(),
    /** The kinds asked for (`order.*` allowed), or null for every kind the endpoint subscribes to. */
    types: text('types', { mode: 'json' }).$type<string[]>(),
    /** The event kinds the replay delivers: `types` expanded and narrowed to the endpoint's subscription. */
    eventTypes: text('event_types', { mode: 'json' }).$type<string[]>().notNull(),
    matched: integer('matched').notNull().default(0),
    queued: integer('queued').notNull().default(0),
    skipped: integer('skipped').notNull().default(0),
    cursor: text('cursor'),
    /** Why a `failed` replay stopped. */
    error: text('error'),
    finishedAt: text('finished_at'),
    ...timestamps,
  },
  (t) => [index('webhook_replays_endpoint_created_idx').on(t.endpointId, t.createdAt)],
);

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
export type WebhookAttemptRow = typeof webhookAttempts.$inferSelect;
export type WebhookReplayRow = typeof webhookReplays.$inferSelect;
