import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { now, timestamps } from './columns';
import { users } from './identity';

// Notifications: every message to a person, the templates they are rendered from, password-reset tokens.

export const NOTIFICATION_STATUSES = ['queued', 'sending', 'sent', 'retrying', 'failed', 'skipped'] as const;

/**
 * Every message to a person (email, SMS), rendered from a template (notificationTemplates below) and
 * sent by the `notifications` queue consumer (src/notifications/). `queued` until a provider takes
 * it (`sent`); `sending` while a consumer holds it (a lease of a minute); `retrying` after a failed attempt; `failed` when retries ran out or the provider
 * refused it for good; `skipped` when the recipient opted out (never sent). The outbox provider
 * sends nothing: the row is the message, readable at /api/notifications.
 */
export const notifications = sqliteTable(
  'notifications',
  {
    id: text('id').primaryKey(),
    channel: text('channel', { enum: ['email', 'sms'] }).notNull(),
    recipient: text('recipient').notNull(),
    /** The template's key (`order_confirmation`). */
    template: text('template').notNull(),
    subject: text('subject'),
    body: text('body').notNull(),
    /** Email only: the HTML part. */
    bodyHtml: text('body_html'),
    /** The variables the message was rendered with. */
    data: text('data', { mode: 'json' }).$type<Record<string, unknown>>().notNull().default(sql`'{}'`),
    status: text('status', { enum: NOTIFICATION_STATUSES }).notNull().default('queued'),
    category: text('category', { enum: ['transactional', 'marketing'] })
      .notNull()
      .default('transactional'),
    /** The outbox event that caused it; null for internal triggers (password reset, endpoint disabled). */
    eventId: text('event_id'),
    /** The account it was sent to, when it went to one. */
    recipientUserId: text('recipient_user_id'),
    /** `<cause>|<template>.<channel>|<recipient>`: one message per cause, template and recipient, however often the cause is processed. */
    dedupeKey: text('dedupe_key'),
    /** The provider that took (or last tried) it: outbox, resend, twilio. */
    provider: text('provider'),
    providerMessageId: text('provider_message_id'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    lastAttemptAt: text('last_attempt_at'),
    sentAt: text('sent_at'),
    ...timestamps,
  },
  (t) => [
    index('notifications_created_idx').on(t.createdAt, t.id),
    index('notifications_status_created_idx').on(t.status, t.createdAt, t.id),
    index('notifications_recipient_idx').on(t.recipient, t.createdAt),
    uniqueIndex('notifications_dedupe_idx').on(t.dedupeKey),
  ],
);

// The templates messages are rendered from, and password-reset tokens.

export const NOTIFICATION_CHANNELS = ['email', 'sms'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];
/** Who a template speaks to: the order's (or account's) customer, or the store's staff. */
export const TEMPLATE_AUDIENCES = ['customer', 'admin'] as const;
/** Marketing messages honour `marketingEmailOptOut`; transactional email always goes. */
export const NOTIFICATION_CATEGORIES = ['transactional', 'marketing'] as const;

/**
 * One message per (key, channel): `order_confirmation` by email, `shipment_shipped` by SMS. `event`
 * is what triggers it: an outbox event type (`order.placed`) or an internal trigger
 * (`password_reset`, `webhook_endpoint_disabled`) that is never broadcast to webhooks. The
 * defaults are seeded by a migration; subject and bodies are editable, with `{{variable}}`
 * placeholders from the trigger's variables (src/notifications/variables.ts).
 */
export const notificationTemplates = sqliteTable(
  'notification_templates',
  {
    id: text('id').primaryKey(),
    key: text('key').notNull(),
    channel: text('channel', { enum: NOTIFICATION_CHANNELS }).notNull(),
    event: text('event').notNull(),
    audience: text('audience', { enum: TEMPLATE_AUDIENCES }).notNull(),
    category: text('category', { enum: NOTIFICATION_CATEGORIES }).notNull().default('transactional'),
    description: text('description'),
    /** Email only. */
    subject: text('subject'),
    /** Plain text: the email's text part, or the SMS. */
    body: text('body').notNull(),
    /** Email only: the HTML part; variables are HTML-escaped in it. */
    bodyHtml: text('body_html'),
    active: integer('active', { mode: 'boolean' }).notNull().default(true),
    createdAt: text('created_at').notNull().default(now),
    updatedAt: text('updated_at').notNull().default(now),
  },
  (t) => [uniqueIndex('notification_templates_key_channel_idx').on(t.key, t.channel), index('notification_templates_event_idx').on(t.event)],
);

/**
 * Password-reset tokens: only the SHA-256 of the token is stored. Single use (`usedAt`), expiring
 * (`expiresAt`); the account's tokenVersion is bumped when one is used, so every session ends.
 */
export const passwordResetTokens = sqliteTable(
  'password_reset_tokens',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: text('expires_at').notNull(),
    usedAt: text('used_at'),
    createdAt: text('created_at').notNull().default(now),
  },
  (t) => [index('password_reset_tokens_user_idx').on(t.userId, t.createdAt)],
);

export type NotificationTemplateRow = typeof notificationTemplates.$inferSelect;
export type PasswordResetTokenRow = typeof passwordResetTokens.$inferSelect;
export type NotificationRow = typeof notifications.$inferSelect;
