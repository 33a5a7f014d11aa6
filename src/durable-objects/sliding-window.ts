/**
 * A sliding window of counted requests, kept as per-second counts (oldest first) and their sum, so
 * it slides second by second and a client cannot get twice the limit by straddling the top of an
 * hour. The arithmetic shared by the limiters (src/durable-objects/rate-limiter.ts per credential,
 * address-limiter.ts per client address); each keeps its own storage in step.
 */
export interface Window {
  seconds: [second: number, count: number][];
  used: number;
}

/** Drops the seconds at or before `windowStart`; returns how many were dropped. */
export function expireSeconds(window: Window, windowStart: number): number {
  let dropped = 0;
  while (window.seconds.length && window.seconds[0]![0] <= windowStart) {
    window.used -= window.seconds.shift()![1];
    dropped++;
  }
  return dropped;
}

/** Adds `n` (negative: takes back) to the count of second `at`, keeping the seconds in order. */
export function addToSecond(window: Window, at: number, n: number): void {
  const last = window.seconds[window.seconds.length - 1];
  if (last && last[0] === at) last[1] += n;
  else if (!last || last[0] < at) window.seconds.push([at, n]);
  else {
    // A clock that stepped back, or a return for an earlier second: keep the list in order.
    const i = window.seconds.findIndex(([s]) => s >= at);
    if (window.seconds[i]![0] === at) window.seconds[i]![1] += n;
    else window.seconds.splice(i, 0, [at, n]);
  }
  window.used += n;
}

/** Hits counted in the `span` seconds up to second `now`. */
export function recentHits(window: Window, now: number, span: number): number {
  let n = 0;
  for (let i = window.seconds.length - 1; i >= 0 && window.seconds[i]![0] > now - span; i--) n += window.seconds[i]![1];
  return n;
}
