import { DurableObject } from 'cloudflare:workers';

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds at which the oldest counted request leaves the window (a slot frees up). */
  reset: number;
  /** Seconds until a request would be allowed again; 0 when allowed. */
  retryAfter: number;
}

/**
 * Counts one credential's (or one client IP's) requests over a sliding window. One object per key
 * (`idFromName`), never a global one. Requests are kept as per-second counts in the object's
 * SQLite storage, so the window slides second by second: a client cannot get twice the limit by
 * straddling the top of an hour. The object handles one call at a time and every SQL call is
 * synchronous, so with a limit of N exactly N requests pass whatever the interleaving. An alarm
 * clears the storage once the window has passed without requests, so idle keys cost nothing.
 */
export class RateLimiter extends DurableObject {
  private readonly sql: SqlStorage;
  /** The alarm time last set, so a busy key writes its alarm at most once a second. */
  private alarmAt: number | null = null;

  constructor(ctx: DurableObjectState, env: unknown) {
    super(ctx, env as never);
    this.sql = ctx.storage.sql;
    this.createTable();
  }

  private createTable() {
    this.sql.exec('CREATE TABLE IF NOT EXISTS hits (second INTEGER PRIMARY KEY, count INTEGER NOT NULL)');
  }

  /** Counts a request at `nowMs` if the window has room; `nowMs` is a parameter so tests can move time. */
  async hit(limit: number, windowSeconds: number, nowMs: number = Date.now()): Promise<RateLimitDecision> {
    const now = Math.floor(nowMs / 1000);
    const windowStart = now - windowSeconds; // seconds <= windowStart have left the window
    this.sql.exec('DELETE FROM hits WHERE second <= ?', windowStart);
    const row = this.sql.exec<{ used: number; oldest: number | null }>('SELECT COALESCE(SUM(count), 0) AS used, MIN(second) AS oldest FROM hits').one();
    const used = row.used;
    const allowed = used < limit;
    if (allowed) {
      this.sql.exec('INSERT INTO hits (second, count) VALUES (?, 1) ON CONFLICT(second) DO UPDATE SET count = count + 1', now);
      const alarmAt = (now + windowSeconds + 1) * 1000;
      if (alarmAt !== this.alarmAt) {
        await this.ctx.storage.setAlarm(alarmAt);
        this.alarmAt = alarmAt;
      }
    }
    const oldest = row.oldest ?? now;
    const reset = oldest + windowSeconds;
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - used - (allowed ? 1 : 0)),
      reset,
      retryAfter: allowed ? 0 : Math.max(1, reset - now),
    };
  }

  /** Nothing was counted for a whole window: drop the storage so the idle key costs nothing. */
  override async alarm(): Promise<void> {
    await this.ctx.storage.deleteAll();
    this.alarmAt = null;
    this.createTable();
  }
}
