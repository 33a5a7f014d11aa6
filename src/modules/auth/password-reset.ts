import { forgetUser } from '../../middleware/credentials/user-token-cache';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { notifications, users } from '../../db/schema';
import { notificationTemplates, passwordResetTokens } from '../../db/schema/notifications';
import type { Bindings } from '../../env';
import { config } from '../../config';
import { sha256Hex } from '../../lib/crypto';
import { ApiError } from '../../lib/errors';
import { ID_PREFIX, newId } from '../../lib/ids';
import { insertWhere } from '../../lib/insert-where';
import { hashPassword } from '../../lib/password';
import { sendNotificationMessages } from '../../notifications/messages';
import { notificationRow } from '../../notifications/planner';
import { REDACTED } from '../../notifications/redaction';
import { resetCause, resetSecret, resetToken } from '../../notifications/reset-token';
import { storeSettings } from '../../db/schema';

export type ResetEnv = Pick<Bindings, 'PASSWORD_RESET_URL' | 'PASSWORD_RESET_TTL_SECONDS' | 'NOTIFICATIONS_QUEUE' | 'JWT_SECRET'>;

/** A second request for the same account within this window sends nothing (no mail bombing through the form). */
export const RESET_COOLDOWN_MS = 60_000;

/** PASSWORD_RESET_URL (an http(s) URL: src/config.ts checks it) with the token. */
export function resetUrl(base: string, token: string): string {
  const url = new URL(base);
  url.searchParams.set('token', token);
  return url.toString();
}

/**
 * Starts a reset: for an active account with this email, a single-use token (stored as its SHA-256)
 * and the password_reset email, queued. For an unknown (or disabled) email the same reads and the
 * same batch run, with conditions that insert nothing, so neither the answer nor its timing says
 * whether the account exists. Returns the id of the queued email, if one was written, for the
 * caller to put on the queue after answering.
 *
 * The token is derived from the reset's id (src/notifications/reset-token.ts) and goes nowhere from
 * here: the email is written with `[redacted]` for it (whatever its template prints), and the
 * notifications consumer puts it back into the copy the provider gets.
 */
export async function requestPasswordReset(db: Database, env: ResetEnv, email: string, now = new Date()): Promise<string | null> {
  const resetId = newId(ID_PREFIX.passwordReset, now.getTime());
  const [tokenHash, [found, templates, settings]] = await Promise.all([
    resetToken(resetSecret(env), resetId).then(sha256Hex),
    db.batch([
      db.select().from(users).where(eq(users.email, email)).limit(1),
      db
        .select()
        .from(notificationTemplates)
        .where(and(eq(notificationTemplates.event, 'password_reset'), eq(notificationTemplates.channel, 'email'), eq(notificationTemplates.active, true)))
        .limit(1),
      db.select({ name: storeSettings.name }).from(storeSettings).where(eq(storeSettings.id, 'store')),
    ]),
  ]);
  const user = found[0];
  const template = templates[0] ?? {
    key: 'password_reset',
    event: 'password_reset',
    channel: 'email' as const,
    category: 'transactional' as const,
    subject: '',
    body: '',
    bodyHtml: null,
  };
  const ttl = config(env).PASSWORD_RESET_TTL_SECONDS;
  const ts = now.toISOString();
  const tokenRow = {
    id: resetId,
    userId: user?.id ?? '',
    tokenHash,
    expiresAt: new Date(now.getTime() + ttl * 1000).toISOString(),
    usedAt: null,
    createdAt: ts,
  };
  const data = {
    storeName: settings[0]?.name ?? 'Store',
    customerName: user?.name ?? email,
    email,
    resetUrl: resetUrl(config(env).PASSWORD_RESET_URL, REDACTED),
    token: REDACTED,
    expiresInMinutes: Math.round(ttl / 60),
  };
  const message = notificationRow({ template, to: email, skip: null, userId: user?.id ?? null, data, cause: resetCause(resetId), eventId: null }, now);
  const cooldown = new Date(now.getTime() - RESET_COOLDOWN_MS).toISOString();
  const eligible = sql`${templates.length > 0 ? 1 : 0} = 1
    AND EXISTS (SELECT 1 FROM ${users} WHERE ${users.id} = ${tokenRow.userId} AND ${users.status} = 'active')
    AND NOT EXISTS (SELECT 1 FROM ${passwordResetTokens} WHERE ${passwordResetTokens.userId} = ${tokenRow.userId} AND ${passwordResetTokens.createdAt} > ${cooldown})`;
  const tokenWritten = sql`EXISTS (SELECT 1 FROM ${passwordResetTokens} WHERE ${passwordResetTokens.id} = ${tokenRow.id})`;
  const [, written] = await db.batch([insertWhere(db, passwordResetTokens, tokenRow, eligible), insertWhere(db, notifications, message, tokenWritten)]);
  // meta.changes also counts rows written by triggers: any change means the insert happened.
  return written.meta.changes > 0 ? message.id : null;
}

export function queueResetEmail(env: ResetEnv, notificationId: string | null): Promise<void> {
  if (!notificationId) return Promise.resolve();
  // Lost here, it is sent by the minute cron (src/notifications/stalled.ts).
  return sendNotificationMessages(env, [notificationId]).catch((error) =>
    console.error(JSON.stringify({ level: 'error', message: 'queueing a password-reset email failed; the cron will send it', error: String(error) })),
  );
}

/**
 * Sets a new password with a reset token: only an unused, unexpired token of an active account.
 * One batch: the password (and a token-version bump that ends every session) is written only while
 * the token is still valid, and then every outstanding token of the account is spent, so two
 * concurrent uses of one token change the password once. A bad token is 422 on `token`.
 */
export async function confirmPasswordReset(db: Database, token: string, password: string, now = new Date()) {
  const [tokenHash, passwordHash] = await Promise.all([sha256Hex(token), hashPassword(password)]);
  const ts = now.toISOString();
  const owner = db
    .select({ userId: passwordResetTokens.userId })
    .from(passwordResetTokens)
    .where(and(eq(passwordResetTokens.tokenHash, tokenHash), isNull(passwordResetTokens.usedAt), gt(passwordResetTokens.expiresAt, ts)));
  const [updated] = await db.batch([
    db
      .update(users)
      .set({ passwordHash, tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: ts })
      .where(and(sql`${users.id} IN ${owner}`, eq(users.status, 'active')))
      .returning(),
    db
      .update(passwordResetTokens)
      .set({ usedAt: ts })
      .where(and(isNull(passwordResetTokens.usedAt), sql`${passwordResetTokens.userId} IN ${owner}`)),
  ]);
  const row = updated[0];
  if (!row) throw ApiError.validation([{ field: 'token', problem: 'is invalid, already used or expired; ask for a new one' }]);
  forgetUser(row.id);
  return row;
}
