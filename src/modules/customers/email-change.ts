import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { passwordResetTokens, type UserRow, users } from '../../db/schema';
import { ApiError } from '../../lib/errors';
import { DECOY_HASH, verifyPassword } from '../../lib/password';

/**
 * The email is the account's sign-in identity, so changing it is treated like a password change:
 * a customer changing its own proves it holds the account with its current password (a stolen
 * token alone cannot take the account over), and every session of the account is retired, whoever
 * changes it. Reset links still out were mailed to the old address, so they are spent too.
 */

/**
 * 422 on `currentPassword` when it is missing or wrong, not 401: the token is fine, and clients
 * treat 401 as "signed out". The decoy hash keeps the work the same for an account without one.
 */
export async function assertCurrentPassword(row: UserRow, currentPassword: string | undefined): Promise<void> {
  if (currentPassword === undefined) throw ApiError.validation([{ field: 'currentPassword', problem: 'is required to change your own email or password', code: 'required' }]);
  const matches = await verifyPassword(currentPassword, row.passwordHash ?? DECOY_HASH);
  if (!row.passwordHash || !matches) throw ApiError.validation([{ field: 'currentPassword', problem: 'is incorrect' }]);
}

/** Spends the account's unused reset links, only if the account now has `email`: run it after the change, in the same batch. */
export function spendResetLinks(db: Database, userId: string, email: string, now: Date) {
  const changed = sql`EXISTS (SELECT 1 FROM ${users} WHERE ${users.id} = ${userId} AND ${users.email} = ${email})`;
  return db
    .update(passwordResetTokens)
    .set({ usedAt: now.toISOString() })
    .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt), changed));
}
