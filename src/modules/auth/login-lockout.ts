import { and, eq, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { loginFailures } from '../db/schema';

/** Five wrong passwords for one account from one address within 15 minutes lock that pair for 15 minutes. */
export const MAX_FAILURES = 5;
export const WINDOW_MS = 15 * 60 * 1000;
export const LOCK_MS = 15 * 60 * 1000;

const key = (email: string, ip: string) => and(eq(loginFailures.email, email.toLowerCase()), eq(loginFailures.ip, ip));

/** The time the pair stays locked until, or null when it may try. */
export async function lockedUntil(db: Database, email: string, ip: string, now = new Date()): Promise<string | null> {
  const [row] = await db.select({ lockedUntil: loginFailures.lockedUntil }).from(loginFailures).where(key(email, ip)).limit(1);
  return row?.lockedUntil && row.lockedUntil > now.toISOString() ? row.lockedUntil : null;
}

/**
 * Counts a failure in one statement (so concurrent attempts cannot lose counts): a window that has
 * run out starts again at 1, and the failure that reaches the limit sets the lock.
 */
export async function recordFailure(db: Database, email: string, ip: string, now = new Date()): Promise<string | null> {
  const ts = now.toISOString();
  const windowStart = new Date(now.getTime() - WINDOW_MS).toISOString();
  const lockEnd = new Date(now.getTime() + LOCK_MS).toISOString();
  const stale = sql`${loginFailures.firstFailureAt} < ${windowStart}`;
  const failures = sql`CASE WHEN ${stale} THEN 1 ELSE ${loginFailures.failures} + 1 END`;
  const [row] = await db
    .insert(loginFailures)
    .values({ email: email.toLowerCase(), ip, failures: 1, firstFailureAt: ts, lockedUntil: MAX_FAILURES <= 1 ? lockEnd : null })
    .onConflictDoUpdate({
      target: [loginFailures.email, loginFailures.ip],
      set: {
        failures,
        firstFailureAt: sql`CASE WHEN ${stale} THEN ${ts} ELSE ${loginFailures.firstFailureAt} END`,
        lockedUntil: sql`CASE WHEN ${failures} >= ${MAX_FAILURES} THEN ${lockEnd} ELSE ${loginFailures.lockedUntil} END`,
      },
    })
    .returning({ lockedUntil: loginFailures.lockedUntil });
  return row?.lockedUntil && row.lockedUntil > ts ? row.lockedUntil : null;
}

/** A successful sign-in clears the pair's count; rows whose window and lock are long over go too. */
export async function clearFailures(db: Database, email: string, ip: string, now = new Date()): Promise<void> {
  const old = new Date(now.getTime() - WINDOW_MS - LOCK_MS).toISOString();
  await db.batch([db.delete(loginFailures).where(key(email, ip)), db.delete(loginFailures).where(lt(loginFailures.firstFailureAt, old))]);
}
