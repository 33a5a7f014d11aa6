import { and, eq, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { loginFailures } from '../../db/schema';
import { ApiError } from '../../lib/errors';

/**
 * Sign-in lock-outs, shared by `POST /api/auth/login`, the admin panel (sign-in and setup) and
 * gift-card code guesses (src/modules/gift-cards/code-attempts.ts), so below the modules. Two
 * counters per account: from one client address (5 failures in 15 minutes lock that pair, so one
 * guesser stops early while the owner can still sign in from elsewhere), and from every address
 * together (20 failures lock the account itself, so guessing spread over many addresses stops too).
 * A lock lasts 15 minutes and refuses even the right password. Emails without an account are counted
 * and locked the same way, so a lock never tells whether an account exists. The `ip` given is the
 * client's network (src/lib/client-network.ts): an IPv6 client is one address per /64.
 */
export const MAX_FAILURES_FROM_ONE_ADDRESS = 5;
export const MAX_FAILURES_PER_ACCOUNT = 20;
export const WINDOW_MS = 15 * 60 * 1000;
export const LOCK_MS = 15 * 60 * 1000;

/** The `ip` of the row that counts an account's failures from every address. */
const EVERY_ADDRESS = '*';

const rowsOf = (email: string, ip: string) => and(eq(loginFailures.email, email.toLowerCase()), inArray(loginFailures.ip, [ip, EVERY_ADDRESS]));

const limitOf = (ip: string) => (ip === EVERY_ADDRESS ? MAX_FAILURES_PER_ACCOUNT : MAX_FAILURES_FROM_ONE_ADDRESS);

/** The latest lock among the counters that still holds at `now`, or null. */
export function activeLock(rows: readonly { lockedUntil: string | null }[], now = new Date()): string | null {
  // biome-ignore lint/complexity/useMathMinMax: ISO timestamps compared as strings; Math.max would turn them into NaN.
  const until = rows.map((r) => r.lockedUntil ?? '').reduce((a, b) => (a > b ? a : b), '');
  return until > now.toISOString() ? until : null;
}

/** 429 RATE_LIMITED with Retry-After, for a sign-in (or what else `refused` names) refused by a lock. */
export function lockedOut(until: string, now = new Date(), refused = 'Too many failed sign-ins for this account'): ApiError {
  const seconds = Math.max(1, Math.ceil((Date.parse(until) - now.getTime()) / 1000));
  return new ApiError('RATE_LIMITED', `${refused}. Try again after ${until.slice(11, 16)} UTC.`, {
    headers: { 'Retry-After': String(seconds) },
  });
}

/**
 * Counts a sign-in attempt BEFORE its password is checked: statements to run in one batch (one
 * transaction) with the account's read, returning the counters after it. Each counted attempt gets
 * its own place in its window, so guesses sent together (at many isolates at once) cannot all pass
 * a lock none of them has set yet: only the first MAX of a window are checked (attemptVerdict).
 * An attempt is counted on the address's counter unless the account is locked, then on the
 * account's unless the address is past its limit, so guesses an address lock refuses never add up
 * to the account's lock. A window that has run out, or whose lock has ended, starts again at 1;
 * the attempt that reaches a counter's limit sets its lock, which a right password lifts again
 * (clearFailureStatements); a lock that holds is never extended.
 */
export function attemptStatements(db: Database, email: string, ip: string, now = new Date()) {
  const ts = now.toISOString();
  const counter = (at: string) => and(eq(loginFailures.email, email.toLowerCase()), eq(loginFailures.ip, at));
  const accountLocked = sql`EXISTS (SELECT 1 FROM ${loginFailures} WHERE ${counter(EVERY_ADDRESS)} AND coalesce(${loginFailures.lockedUntil}, '') > ${ts})`;
  const addressAttempts = sql`(SELECT ${loginFailures.failures} FROM ${loginFailures} WHERE ${counter(ip)})`;
  return [
    countOn(db, email, ip, now, sql`NOT ${accountLocked}`),
    countOn(db, email, EVERY_ADDRESS, now, sql`coalesce(${addressAttempts}, 0) <= ${MAX_FAILURES_FROM_ONE_ADDRESS}`),
    locksStatement(db, email, ip),
  ] as const;
}

/**
 * The locks of both counters, read without counting: for a secret that is checked before it is
 * counted and counted only when wrong (a gift card's code), whose right answer must still be refused
 * while a lock holds (activeLock).
 */
export function locksStatement(db: Database, email: string, ip: string) {
  return db.select({ lockedUntil: loginFailures.lockedUntil }).from(loginFailures).where(rowsOf(email, ip));
}

/** One counter's upsert for attemptStatements: +1 (or a new window) when `counts` holds of the row that is there. */
function countOn(db: Database, email: string, ip: string, now: Date, counts: SQL) {
  const ts = now.toISOString();
  const windowStart = new Date(now.getTime() - WINDOW_MS).toISOString();
  const lockEnd = new Date(now.getTime() + LOCK_MS).toISOString();
  const locked = sql`coalesce(${loginFailures.lockedUntil}, '') > ${ts}`;
  const restart = sql`(NOT ${locked} AND (${loginFailures.firstFailureAt} < ${windowStart} OR ${loginFailures.lockedUntil} IS NOT NULL))`;
  const attempts = sql`CASE WHEN ${restart} THEN 1 ELSE ${loginFailures.failures} + 1 END`;
  return db
    .insert(loginFailures)
    .values({ email: email.toLowerCase(), ip, failures: 1, firstFailureAt: ts, lockedUntil: null })
    .onConflictDoUpdate({
      target: [loginFailures.email, loginFailures.ip],
      set: {
        failures: attempts,
        firstFailureAt: sql`CASE WHEN ${restart} THEN ${ts} ELSE ${loginFailures.firstFailureAt} END`,
        lockedUntil: sql`CASE WHEN ${locked} THEN ${loginFailures.lockedUntil} WHEN ${attempts} >= ${limitOf(ip)} THEN ${lockEnd} ELSE NULL END`,
      },
      setWhere: counts,
    })
    .returning({ failures: loginFailures.failures });
}

type Counted = readonly { failures: number }[];

/**
 * What the batch of attemptStatements allows: the password is checked only if the attempt was
 * counted on both counters within their limits; `lock` is then the lock this attempt set by
 * reaching a limit (a wrong password answers 429), else the lock that refuses it.
 */
export function attemptVerdict(
  [address, account, counters]: readonly [Counted, Counted, readonly { lockedUntil: string | null }[]],
  now = new Date(),
): { allowed: true; lock: string | null } | { allowed: false; lock: string } {
  const lock = activeLock(counters, now);
  const within = (rows: Counted, limit: number) => rows.length === 1 && rows[0]!.failures <= limit;
  if (within(address, MAX_FAILURES_FROM_ONE_ADDRESS) && within(account, MAX_FAILURES_PER_ACCOUNT)) return { allowed: true, lock };
  return { allowed: false, lock: lock ?? new Date(now.getTime() + LOCK_MS).toISOString() };
}

/** Counts an attempt (attemptStatements) in a batch of its own and says whether its secret may be checked. */
export async function countAttempt(db: Database, email: string, ip: string, now = new Date()) {
  return attemptVerdict(await db.batch(attemptStatements(db, email, ip, now)), now);
}

/** A right password clears the account's counters (its own attempt included); rows whose window and lock are long over go too. */
export function clearFailureStatements(db: Database, email: string, ip: string, now = new Date()) {
  const old = new Date(now.getTime() - WINDOW_MS - LOCK_MS).toISOString();
  return [db.delete(loginFailures).where(rowsOf(email, ip)), db.delete(loginFailures).where(lt(loginFailures.firstFailureAt, old))] as const;
}
