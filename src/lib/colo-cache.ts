/**
 * The data centre's shared cache (the Workers Cache API, `caches.default`) for anonymous catalogue
 * answers: every isolate of the colo can serve what one of them rendered. Entries are keyed by the
 * catalogue version and the URL, so a catalogue write makes every older entry unreachable without
 * a purge; they simply age out. Used by src/middleware/catalogue-cache.ts, which decides when a
 * version is current enough to look an answer up by.
 *
 * The Cache API works on a custom domain only: on `*.workers.dev` every put and match is a no-op
 * (Cloudflare's documentation), and this layer is then never hit. Locally (wrangler dev, the tests)
 * miniflare implements it.
 */

/** How long an entry may stay: it can never be served for another version, so this only bounds storage. */
const ENTRY_SECONDS = 3600;
/** A path no route answers, so a key cannot be confused with a request the zone's cache might keep. */
const KEY_PREFIX = '/__catalogue-cache/';

export interface ColoEntry {
  body: ArrayBuffer;
  contentType: string;
}

function keyOf(origin: string, version: number, target: string): string {
  return `${origin}${KEY_PREFIX}${version}${target}`;
}

/** The answer kept in this colo for `target` (path and query) at `version`, if any; a cache failure is a miss. */
export async function coloMatch(origin: string, version: number, target: string): Promise<ColoEntry | undefined> {
  try {
    const found = await caches.default.match(keyOf(origin, version, target));
    if (!found) return undefined;
    return { body: await found.arrayBuffer(), contentType: found.headers.get('Content-Type') ?? 'application/json' };
  } catch {
    return undefined;
  }
}

/** Keeps an answer for the colo's other isolates, in the background of the request that rendered it. */
export function coloPut(
  waitUntil: (promise: Promise<unknown>) => void,
  origin: string,
  version: number,
  target: string,
  entry: { body: string | ArrayBuffer; contentType: string },
): void {
  const response = new Response(entry.body, {
    headers: { 'Content-Type': entry.contentType, 'Cache-Control': `public, max-age=${ENTRY_SECONDS}` },
  });
  waitUntil(caches.default.put(keyOf(origin, version, target), response).catch(() => undefined));
}
