import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { loginFailures } from '../../db/schema';
import { ApiError } from '../../lib/errors';

/**
 * Sign-in lock-outs, shared by `POST /api/auth/login` and the admin panel (sign-in and setup). Two
 * counters per account: from one client address (5 failures in 15 minutes lock that pair, so one
 * guesser stops early while the owner can still sign in from elsewhere), and from every address
 * together (20 failures lock the account itself, so guessing spread over many addresses stops too).
 * A lock lasts 15 minutes and refuses even the right password. Emails without an account are counted
 * and locked the same way, so a lock never tells whether an account exists.
 */
export const MAX_FAILURES_FROM_ONE_ADDRESS = 5;
export const MAX_FAILURES_PER_ACCOUNT = 20;
export const WINDOW_MS = 15 * 60 * 1000;
export const LOCK_MS = 15 * 60 * 1000;

/** The `ip` of the row that counts an account's failures from every address. */
const EVERY_ADDRESS = '*';

const rowsOf = (email: string, ip: string) =>
  and(eq(loginFailures.email, email.toLowerCase()), inArray(loginFailures.ip, [ip, EVERY_ADDRESS]));

/** The statement that reads both counters of an account and address, to batch with the account's own read. */
export function lockStatement(db: Database, email: string, ip: string) {
  return db.select({ lockedUntil: loginFailures.lockedUntil }).from(loginFailures).where(rowsOf(email, ip));
}

/** The latest lock among rows read by lockStatement that still holds at `now`, or null. */
export function activeLock(rows: readonly { lockedUntil: string | null }[], now = new Date()): string | null {
  const until = rows.map((r) => r.lockedUntil ?? '').reduce((a, b) => (a > b ? a : b), '');
  return until > now.toISOString() ? until : null;
}

export async function lockedUntil(db: Database, email: string, ip: string, now = new Date()): Promise<string | null> {
  return activeLock(await lockStatement(db, email, ip), now);
}

/** 429 RATE_LIMITED with Retry-After, for a sign-in refused by a lock. */
export function lockedOut(until: string, now = new Date()): ApiError {
  const seconds = Math.max(1, Math.ceil((Date.parse(until) - now.getTime()) / 1000));
  return new ApiError('RATE_LIMITED', `Too many failed sign-ins for this account. Try again after ${until.slice(11, 16)} UTC.`, {
    headers: { 'Retry-After': String(seconds) },
  });
}

/**
 * Counts a failure on both counters in one statement (so concurrent attempts cannot lose counts): a
 * window that has run out starts again at 1, and the failure that reaches a counter's limit sets
 * its lock. Returns the lock now holding, if any.
 */
export async function recordFailure(db: Database, email: string, ip: string, now = new Date()): Promise<string | null> {
  const ts = now.toISOString();
  const windowStart = new Date(now.getTime() - WINDOW_MS).toISOString();
  const lockEnd = new Date(now.getTime() + LOCK_MS).toISOString();
  const stale = sql`${loginFailures.firstFailureAt} < ${windowStart}`;
  const failures = sql`CASE WHEN ${stale} THEN 1 ELSE ${loginFailures.failures} + 1 END`;
  const limit = sql`CASE WHEN ${loginFailures.ip} = ${EVERY_ADDRESS} THEN ${MAX_FAILURES_PER_ACCOUNT} ELSE ${MAX_FAILURES_FROM_ONE_ADDRESS} END`;
  const row = (at: string) => ({ email: email.toLowerCase(), ip: at, failures: 1, firstFailureAt: ts, lockedUntil: null });
  const rows = await db
    .insert(loginFailures)
    .values([row(ip), row(EVERY_ADDRESS)])
    .onConflictDoUpdate({
      target: [loginFailures.email, loginFailures.ip],
      set: {
        failures,
        firstFailureAt: sql`CASE WHEN ${stale} THEN ${ts} ELSE ${loginFailures.firstFailureAt} END`,
        lockedUntil: sql`CASE WHEN ${failures} >= ${limit} THEN ${lockEnd} ELSE ${loginFailures.lockedUntil} END`,
      },
    })
    .returning({ lockedUntil: loginFailures.lockedUntil });
  return activeLock(rows, now);
}

/** A successful sign-in clears the account's counters; rows whose window and lock are long over go too. */
export function clearFailureStatements(db: Database, email: string, ip: string, now = new Date()) {
  const old = new Date(now.getTime() - WINDOW_MS - LOCK_MS).toISOString();
  return [db.delete(loginFailures).where(rowsOf(email, ip)), db.delete(loginFailures).where(lt(loginFailures.firstFailureAt, old))] as const;
}
