import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { users } from './schema';

/**
 * Notifications (issue 8): the templates messages are rendered from, and password-reset tokens.
 * The message log itself is the `notifications` table of schema.ts (the webhook pipeline wrote
 * admin notices there first). Conventions as in schema.ts.
 */

const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

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
