import { DurableObject } from 'cloudflare:workers';
import { WINDOW_SECONDS } from './rate-limit-window';
import { addToSecond, expireSeconds, recentHits, type Window } from './sliding-window';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds at which the oldest counted request leaves the window (a slot frees up). */
  reset: number;
  /** Seconds until a request would be allowed again; 0 when allowed. */
  retryAfter: number;
  /**
   * Hits counted by this call: 1 when allowed, 0 when not, more when a lease was asked for and the
   * key is busy and far from its limit (the caller answers the extra ones itself; see take()).
   */
  granted: number;
  /** The second (Unix) the hits were counted at, which giveBack() names. */
  countedAt: number;
}

/** A key is busy (worth a lease) when it had this many hits in the last BUSY_SECONDS, like a storefront page's burst of calls. */
const BUSY_HITS = 3;
const BUSY_SECONDS = 10;
/** Leases are granted only while at least this many requests would remain after them. */
const LEASE_FLOOR = 50;

/**
 * Counts one credential's (or one client IP's) requests over a sliding window. One object per key
 * (`idFromName`), never a global one. Requests are kept as per-second counts, so the window slides
 * second by second: a client cannot get twice the limit by straddling the top of an hour.
 *
 * The counts live in memory and in the object's SQLite storage: memory answers (no scan of up to
 * 3,600 rows per request), storage is written once per allowed hit and reloaded when the object
 * starts again, so an evicted object forgets nothing. The object handles one call at a time and
 * nothing awaits between reading and updating the counts, so with a limit of N exactly N requests
 * pass whatever the interleaving. One alarm per window (not one per second) sweeps the seconds that
 * left it and clears the storage of an idle key, so idle keys cost nothing.
 */
export class RateLimiter extends DurableObject {
  private readonly sql: SqlStorage;
  private window: Window | null = null;
  /** When the alarm is set for, so a busy key sets it once per window. */
  private alarmAt: number | null = null;
  /** The window of the last hit, which the alarm's sweep uses. */
  private windowSeconds = WINDOW_SECONDS;

  constructor(ctx: DurableObjectState, env: unknown) {
    super(ctx, env as never);
    this.sql = ctx.storage.sql;
    this.createTable();
  }

  private createTable() {
    this.sql.exec('CREATE TABLE IF NOT EXISTS hits (second INTEGER PRIMARY KEY, count INTEGER NOT NULL)');
  }

  private load(): Window {
    if (!this.window) {
      const seconds = this.sql.exec<{ second: number; count: number }>('SELECT second, count FROM hits ORDER BY second').toArray();
      this.window = { seconds: seconds.map((r) => [r.second, r.count]), used: seconds.reduce((sum, r) => sum + r.count, 0) };
    }
    return this.window;
  }

  /** Drops the seconds at or before `windowStart` from memory and storage. */
  private expire(window: Window, windowStart: number) {
    if (expireSeconds(window, windowStart)) this.sql.exec('DELETE FROM hits WHERE second <= ?', windowStart);
  }

  /** Adds `n` (negative: takes back) to the count of second `at`. */
  private count(window: Window, at: number, n: number) {
    addToSecond(window, at, n);
    this.sql.exec('INSERT INTO hits (second, count) VALUES (?, ?) ON CONFLICT(second) DO UPDATE SET count = count + excluded.count', at, n);
  }

  /** Counts a request at `nowMs` if the window has room; `nowMs` is a parameter so tests can move time. */
  async hit(limit: number, windowSeconds: number, nowMs: number = Date.now()): Promise<RateLimitDecision> {
    return this.take(limit, windowSeconds, 1, nowMs);
  }

  /**
   * Counts a request, and up to `lease - 1` more in advance when the key is busy (BUSY_HITS in the
   * last BUSY_SECONDS) and at least LEASE_FLOOR requests would still remain: the caller answers those
   * without asking again and gives back what it did not use (giveBack). Counting in advance can
   * only refuse early, never let more than `limit` through; near the limit every request is asked
   * for one by one, so the edge stays exact.
   */
  async take(limit: number, windowSeconds: number, lease: number, nowMs: number = Date.now()): Promise<RateLimitDecision> {
    const now = Math.floor(nowMs / 1000);
    this.windowSeconds = windowSeconds;
    const window = this.load();
    this.expire(window, now - windowSeconds);
    const used = window.used;
    const allowed = used < limit;
    const busy = lease > 1 && recentHits(window, now, BUSY_SECONDS) >= BUSY_HITS;
    const granted = !allowed ? 0 : busy ? Math.max(1, Math.min(lease, limit - used - LEASE_FLOOR)) : 1;
    if (granted) this.count(window, now, granted);
    const oldest = window.seconds[0]?.[0] ?? now;
    const reset = oldest + windowSeconds;
    if (allowed && this.alarmAt === null) {
      // The first second counted leaves the window then; the sweep re-arms for the next one.
      this.alarmAt = (reset + 1) * 1000;
      await this.ctx.storage.setAlarm(this.alarmAt);
    }
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - used - granted),
      reset,
      retryAfter: allowed ? 0 : Math.max(1, reset - now),
      granted,
      countedAt: now,
    };
  }

  /** Takes back `n` hits a lease counted at second `at` and did not use (nothing if that second left the window). */
  async giveBack(n: number, at: number): Promise<void> {
    const window = this.load();
    const entry = window.seconds.find(([s]) => s === at);
    if (!entry || n <= 0) return;
    this.count(window, at, -Math.min(n, entry[1]));
  }

  /**
   * Forgets the seconds that left the window by `nowMs`. Returns when to sweep next (the oldest
   * remaining second's exit), or null when nothing is left, in which case the storage is dropped.
   */
  async sweep(windowSeconds: number, nowMs: number = Date.now()): Promise<number | null> {
    const window = this.load();
    this.expire(window, Math.floor(nowMs / 1000) - windowSeconds);
    const oldest = window.seconds[0]?.[0];
    if (oldest === undefined) {
      await this.ctx.storage.deleteAll();
      this.window = null;
      this.createTable();
      return null;
    }
    return (oldest + windowSeconds + 1) * 1000;
  }

  override async alarm(): Promise<void> {
    const next = await this.sweep(this.windowSeconds);
    this.alarmAt = next;
    if (next !== null) await this.ctx.storage.setAlarm(next);
  }
}
