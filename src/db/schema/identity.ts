import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { timestamps } from './columns';
import { vendors } from './catalogue';

// Who calls: roles, users (customers and staff), their addresses, API keys, sign-in failures.

export const roles = sqliteTable('roles', {
  id: text('id').primaryKey(),
  name: text('name').notNull().unique(),
  description: text('description'),
  permissions: text('permissions', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
  builtIn: integer('built_in', { mode: 'boolean' }).notNull().default(false),
  ...timestamps,
});

export const USER_STATUSES = ['active', 'disabled'] as const;

/**
 * Everyone who signs in: customers, vendor users and admin users, told apart by role. One table so
 * that an email address names one account and one login endpoint serves all.
 */
export const users = sqliteTable(
  'users',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull().unique(),
    name: text('name'),
    phone: text('phone'),
    /** `pbkdf2-sha256$<iterations>$<salt>$<hash>`; null for an account that cannot sign in yet. */
    passwordHash: text('password_hash'),
    roleId: text('role_id')
      .notNull()
      .references(() => roles.id, { onDelete: 'restrict' }),
    vendorId: text('vendor_id').references(() => vendors.id, { onDelete: 'restrict' }),
    status: text('status', { enum: USER_STATUSES }).notNull().default('active'),
    /** Carried in every JWT as `ver`; bumped on password change so older tokens stop working. */
    tokenVersion: integer('token_version').notNull().default(0),
    /** The customer wants no SMS (src/notifications). */
    smsOptOut: integer('sms_opt_out', { mode: 'boolean' }).notNull().default(false),
    /** The customer wants no marketing email; transactional email (orders, receipts, resets) still goes. */
    marketingEmailOptOut: integer('marketing_email_opt_out', { mode: 'boolean' }).notNull().default(false),
    lastLoginAt: text('last_login_at'),
    ...timestamps,
  },
  (t) => [index('users_role_created_idx').on(t.roleId, t.createdAt, t.id), index('users_vendor_idx').on(t.vendorId)],
);

export const addresses = sqliteTable(
  'addresses',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    firstName: text('first_name'),
    lastName: text('last_name'),
    company: text('company'),
    line1: text('line1').notNull(),
    line2: text('line2'),
    city: text('city').notNull(),
    region: text('region'),
    postalCode: text('postal_code'),
    country: text('country').notNull(),
    phone: text('phone'),
    isDefaultShipping: integer('is_default_shipping', { mode: 'boolean' }).notNull().default(false),
    isDefaultBilling: integer('is_default_billing', { mode: 'boolean' }).notNull().default(false),
    ...timestamps,
  },
  (t) => [index('addresses_user_idx').on(t.userId, t.createdAt)],
);

/** API keys: only the SHA-256 of the key is stored; `prefix` is the visible start of the key. */
export const apiKeys = sqliteTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    /**
     * `secret` (`sk_…`): a server's credential, holding a role or permissions. `publishable`
     * (`pk_…`): safe in a browser, with the abilities of a shopper without an account and nothing
     * more, usable only from its `allowedOrigins`, counted per shopper network (src/middleware/rate-limit.ts).
     */
    type: text('type', { enum: ['secret', 'publishable'] })
      .notNull()
      .default('secret'),
    /** For a publishable key: the web origins a browser may use it from (as the settings' allowedOrigins). */
    allowedOrigins: text('allowed_origins', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull().unique(),
    /** A role whose permissions the key holds, or null for a key with its own `permissions` list. */
    roleId: text('role_id').references(() => roles.id, { onDelete: 'restrict' }),
    permissions: text('permissions', { mode: 'json' }).$type<string[]>().notNull().default(sql`'[]'`),
    /**
     * The user on whose authority the key exists: the user who minted it, or the owner of the key that
     * minted it; null for keys minted by the CLI or bootstrap. No foreign key on purpose: the key check
     * treats a key whose owner is gone, disabled or no longer covers it as unusable (src/lib/access.ts).
     */
    ownerId: text('owner_id'),
    /** The vendor a key of the vendor role acts for, scoped like that vendor's users; null for other keys. */
    vendorId: text('vendor_id').references(() => vendors.id, { onDelete: 'restrict' }),
    createdBy: text('created_by'),
    expiresAt: text('expires_at'),
    revokedAt: text('revoked_at'),
    lastUsedAt: text('last_used_at'),
    /** The API version (src/versions/) the key's requests are answered in when they send no `Store-Version`: the store's default when it was minted, unless given. */
    apiVersion: text('api_version').notNull().default('2026-11-20'),
    ...timestamps,
  },
  (t) => [index('api_keys_owner_idx').on(t.ownerId)],
);

/**
 * Sign-in attempts (the API's login and the admin panel's alike), counted per account and client
 * network and per account across every network (`ip` = '*') before the password is checked, and
 * cleared by a right one, so `failures` counts failed and pending attempts: a row at its limit locks
 * until `lockedUntil` (src/middleware/credentials/login-lockout.ts). Rows exist for emails with no account too,
 * so a lock never tells whether an account exists.
 */
export const loginFailures = sqliteTable(
  'login_failures',
  {
    email: text('email').notNull(),
    ip: text('ip').notNull(),
    failures: integer('failures').notNull(),
    /** Start of the counting window: failures older than the window no longer count. */
    firstFailureAt: text('first_failure_at').notNull(),
    lockedUntil: text('locked_until'),
  },
  (t) => [primaryKey({ columns: [t.email, t.ip] })],
);

/**
 * The outbox: a domain event is inserted in the same D1 batch as the change that causes it, so
 * either both commit or neither does. `publishedAt` is set once the event has been handed to the
 * delivery queue.
 */
export type RoleRow = typeof roles.$inferSelect;
export type UserRow = typeof users.$inferSelect;
export type AddressRow = typeof addresses.$inferSelect;
export type ApiKeyRow = typeof apiKeys.$inferSelect;
