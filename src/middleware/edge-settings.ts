import { originMatcher } from '../lib/origins';
import { keptPerIsolate } from '../lib/isolate-state';

/**
 * The settings a request needs before any handler runs, as this isolate last read them: the
 * store's allowed origins (CORS, so that a preflight is answered with no D1 round trip), its
 * default API version (src/middleware/store-version.ts) and its name (`GET /api`). Kept for KEEP_MS; after that the kept
 * values still answer while a fresh read runs in the background (stale while revalidate). A
 * settings write through this isolate replaces them at once; other isolates see it within KEEP_MS
 * plus one read.
 */
export const KEEP_MS = 30_000;

export interface EdgeSettings {
  allowedOrigins: readonly string[];
  apiVersion: string;
  storeName: string;
}

interface Kept extends EdgeSettings {
  readAt: number;
}

let kept: Kept | undefined;
/** A background read under way (a flag, not a promise: a promise must not be awaited across requests). */
let refreshing = false;
keptPerIsolate(() => {
  kept = undefined;
  refreshing = false;
});

/** Keeps what a settings write just wrote (only the fields it wrote, when something is kept already). */
export function keepEdgeSettings(settings: Partial<EdgeSettings>, now = Date.now()): void {
  if (kept) kept = { ...kept, ...settings, readAt: now };
  else if (settings.allowedOrigins && settings.apiVersion && settings.storeName !== undefined)
    kept = { allowedOrigins: settings.allowedOrigins, apiVersion: settings.apiVersion, storeName: settings.storeName, readAt: now };
}

/** Forgets the kept settings, so the next request reads them (tests). */
export function forgetEdgeSettings(): void {
  kept = undefined;
}

export interface EdgeSettingsSource {
  /** Reads the settings from D1. */
  read: () => Promise<EdgeSettings>;
  /** Keeps a background promise alive past the answer (the request's waitUntil). */
  waitUntil: (promise: Promise<unknown>) => void;
  /** Logs a failed read; the last kept settings (or `fallback`) stay in force. */
  onError: (error: unknown) => void;
}

/**
 * The kept settings when there are some (read again behind the answer once older than KEEP_MS),
 * else read now (a new isolate's first request); `fallback` when that read fails.
 */
export async function storeEdgeSettings(source: EdgeSettingsSource, fallback: EdgeSettings, now = Date.now()): Promise<EdgeSettings> {
  if (!kept) {
    try {
      const settings = await source.read();
      kept = { ...settings, readAt: Date.now() };
      return settings;
    } catch (error) {
      source.onError(error);
      return fallback;
    }
  }
  if (now - kept.readAt > KEEP_MS && !refreshing) {
    refreshing = true;
    const refresh = source
      .read()
      .then((settings) => {
        kept = { ...settings, readAt: Date.now() };
      })
      .catch(source.onError)
      .finally(() => {
        refreshing = false;
      });
    source.waitUntil(refresh);
  }
  return kept;
}

/** A matcher per distinct list (the settings' and the environment's together), built once. */
let matcherFor: { key: string; matches: (origin: string) => boolean } | undefined;

export function matcherOf(patterns: readonly string[]): (origin: string) => boolean {
  const key = patterns.join('\n');
  if (matcherFor?.key !== key) matcherFor = { key, matches: originMatcher(patterns) };
  return matcherFor.matches;
}
