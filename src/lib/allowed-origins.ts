import { originMatcher } from './origins';
import { keptPerIsolate } from './isolate-state';

/**
 * The store's allowed origins as this isolate last read them (`allowedOrigins` in the settings),
 * so that a preflight is answered with no D1 round trip. Kept for KEEP_MS; after that the kept list
 * still answers while a fresh read runs in the background (stale while revalidate). A settings
 * write through this isolate replaces it at once; other isolates see it within KEEP_MS plus one read.
 */
export const KEEP_MS = 30_000;

interface Kept {
  patterns: readonly string[];
  readAt: number;
}

let kept: Kept | undefined;
/** A background read under way (a flag, not a promise: a promise must not be awaited across requests). */
let refreshing = false;
keptPerIsolate(() => {
  kept = undefined;
  refreshing = false;
});

export function keepAllowedOrigins(patterns: readonly string[], now = Date.now()): void {
  kept = { patterns, readAt: now };
}

/** Forgets the kept list, so the next request reads it (tests). */
export function forgetAllowedOrigins(): void {
  kept = undefined;
}

export interface OriginSource {
  /** Reads the settings' list from D1. */
  read: () => Promise<readonly string[]>;
  /** Keeps a background promise alive past the answer (the request's waitUntil). */
  waitUntil: (promise: Promise<unknown>) => void;
  /** Logs a failed read; the last kept list (or none) stays in force. */
  onError: (error: unknown) => void;
}

/**
 * The settings' allowed origins: the kept list when there is one (read again behind the answer
 * once older than KEEP_MS), else read now (a new isolate's first request).
 */
export async function storeAllowedOrigins(source: OriginSource, now = Date.now()): Promise<readonly string[]> {
  if (!kept) {
    try {
      const patterns = await source.read();
      keepAllowedOrigins(patterns);
      return patterns;
    } catch (error) {
      source.onError(error);
      return [];
    }
  }
  if (now - kept.readAt > KEEP_MS && !refreshing) {
    refreshing = true;
    const refresh = source
      .read()
      .then((patterns) => keepAllowedOrigins(patterns))
      .catch(source.onError)
      .finally(() => {
        refreshing = false;
      });
    source.waitUntil(refresh);
  }
  return kept.patterns;
}

/** A matcher per distinct list (the settings' and the environment's together), built once. */
let matcherFor: { key: string; matches: (origin: string) => boolean } | undefined;

export function matcherOf(patterns: readonly string[]): (origin: string) => boolean {
  const key = patterns.join('\n');
  if (matcherFor?.key !== key) matcherFor = { key, matches: originMatcher(patterns) };
  return matcherFor.matches;
}
