import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './identity';

/**
 * Tables of the admin panel (src/admin). Sessions live server-side so that signing out, a password
 * change (the user's token version) or disabling the user ends them at once; the cookie holds a
 * random token and only its SHA-256 is stored, so a copy of the table signs no one in.
 */
export const adminSessions = sqliteTable(
  'admin_sessions',
  {
    /** Lowercase hex SHA-256 of the session token in the cookie. */
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The user's token version at sign-in: a password change bumps it and ends the session. */
    tokenVersion: integer('token_version').notNull(),
    /** Per-session CSRF token, carried by every form of the panel. */
    csrfToken: text('csrf_token').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: text('created_at').notNull(),
    expiresAt: text('expires_at').notNull(),
  },
  (t) => [index('admin_sessions_user_idx').on(t.userId), index('admin_sessions_expires_idx').on(t.expiresAt)],
);

export type AdminSessionRow = typeof adminSessions.$inferSelect;
