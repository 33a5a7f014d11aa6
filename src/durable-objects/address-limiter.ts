import { DurableObject } from 'cloudflare:workers';
import type { RateLimitDecision } from './rate-limiter';
import { addToSecond, expireSeconds, type Window } from './sliding-window';

/**
 * One request count of a batch: `asked` requests wait for the verdict (counted only if the window
 * has room); `served` ones were answered already, from the isolate's estimate, and are counted
 * whatever the verdict (src/rate-limit/estimates.ts).
 */
export interface AddressCount {
  address: string;
  n: number;
  mode: 'asked' | 'served';
}

/**
 * The hourly windows of client addresses (requests without a credential), many addresses to an
 * object: addresses are spread over ADDRESS_SHARDS objects by a hash (src/rate-limit/address-limits.ts),
 * so a storefront's stream of new shoppers does not create an object per shopper, and an isolate
 * sends what it counted for many addresses in one call. The window arithmetic is RateLimiter's
 * (src/durable-objects/sliding-window.ts); one call at a time, nothing awaited between reading and
 * updating a window, so the counts are exact. Windows live in memory and in SQLite (reloaded per
 * address after an eviction); one alarm per window's length sweeps what left it.
 */
export class AddressLimiter extends DurableObject {
  private readonly sql: SqlStorage;
  private readonly windows = new Map<string, Window>();
  private alarmAt: number | null = null;
  private windowSeconds = 3600;

  constructor(ctx: DurableObjectState, env: unknown) {
    super(ctx, env as never);
    this.sql = ctx.storage.sql;
    this.createTable();
  }

  private createTable() {
    this.sql.exec('CREATE TABLE IF NOT EXISTS hits (address TEXT NOT NULL, second INTEGER NOT NULL, count INTEGER NOT NULL, PRIMARY KEY (address, second)) WITHOUT ROWID');
  }

  private load(address: string): Window {
    let window = this.windows.get(address);
    if (!window) {
      const seconds = this.sql.exec<{ second: number; count: number }>('SELECT second, count FROM hits WHERE address = ? ORDER BY second', address).toArray();
      window = { seconds: seconds.map((r) => [r.second, r.count]), used: seconds.reduce((sum, r) => sum + r.count, 0) };
      this.windows.set(address, window);
    }
    return window;
  }

  /** Counts a batch of addresses' requests at `nowMs`; one decision per entry, in order. */
  async count(limit: number, windowSeconds: number, entries: AddressCount[], nowMs: number = Date.now()): Promise<RateLimitDecision[]> {
    const now = Math.floor(nowMs / 1000);
    this.windowSeconds = windowSeconds;
    const decisions = entries.map(({ address, n, mode }) => {
      const window = this.load(address);
      if (expireSeconds(window, now - windowSeconds)) this.sql.exec('DELETE FROM hits WHERE address = ? AND second <= ?', address, now - windowSeconds);
      const used = window.used;
      const allowed = used < limit;
      const granted = mode === 'served' ? n : allowed ? 1 : 0;
      if (granted) {
        addToSecond(window, now, granted);
        this.sql.exec(
          'INSERT INTO hits (address, second, count) VALUES (?, ?, ?) ON CONFLICT(address, second) DO UPDATE SET count = count + excluded.count',
          address,
          now,
          granted,
        );
      }
      const reset = (window.seconds[0]?.[0] ?? now) + windowSeconds;
      return { allowed, limit, remaining: Math.max(0, limit - window.used), reset, retryAfter: allowed ? 0 : Math.max(1, reset - now), granted, countedAt: now };
    });
    if (this.alarmAt === null) {
      this.alarmAt = (now + windowSeconds + 1) * 1000;
      await this.ctx.storage.setAlarm(this.alarmAt);
    }
    return decisions;
  }

  /** Requests `address` has in its window now (for tests and operators). */
  async used(address: string, nowMs: number = Date.now()): Promise<number> {
    const window = this.load(address);
    expireSeconds(window, Math.floor(nowMs / 1000) - this.windowSeconds);
    return window.used;
  }

  /** Forgets what left the window by `nowMs`; returns when to sweep next, or null once empty (storage dropped). */
  async sweep(windowSeconds: number, nowMs: number = Date.now()): Promise<number | null> {
    const windowStart = Math.floor(nowMs / 1000) - windowSeconds;
    this.sql.exec('DELETE FROM hits WHERE second <= ?', windowStart);
    this.windows.clear();
    const oldest = this.sql.exec<{ oldest: number | null }>('SELECT min(second) AS oldest FROM hits').one().oldest;
    if (oldest === null) {
      await this.ctx.storage.deleteAll();
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
