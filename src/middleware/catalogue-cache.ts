import { eq } from 'drizzle-orm';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { Database } from '../db/client';
import { compiled } from '../db/compiled';
import { catalogueVersion } from '../db/schema';
import { type AppEnv, numberSetting } from '../env';
import { LruCache } from '../lib/lru';
import type { Principal } from '../lib/access';

/** Anonymous catalogue reads: a CDN may keep them a minute and serve them stale while it revalidates. */
export const PUBLIC_CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=300';
/** Credentialed reads may show drafts, other statuses or a vendor's view: never stored by anyone. */
export const PRIVATE_CACHE_CONTROL = 'private, no-store';

/** FNV-1a (32 bits) of the URL, so two URLs at one catalogue version have different ETags. */
function urlHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}

/** The ETag of a public catalogue read: the catalogue version and the URL (path and query). */
function etagOf(version: number, target: string): string {
  return `W/"c${version}-${urlHash(target)}"`;
}

/** If-None-Match holds `etag` (weak comparison, RFC 9110 13.1.2) or is `*`. */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}

/** The catalogue version row, as a statement that can join any batch (built once per isolate: every catalogue read runs it). */
const versionQuery = compiled((db) => db.select({ version: catalogueVersion.version }).from(catalogueVersion).where(eq(catalogueVersion.id, 1)));

/**
 * The version alone, in a batch of its own: a batch (not db.all) so that a cached API key's check
 * rides along (src/middleware/verified-d1.ts) and X-D1-Rows-Read counts it.
 */
async function readVersion(db: Database): Promise<number> {
  const [rows] = (await db.batch([versionQuery(db, {})] as never)) as [{ version: number }[]];
  return rows[0]?.version ?? 0;
}

/**
 * `db` whose first batch() also reads the catalogue version and hands it to `take`: the version of
 * exactly the rows the handler read, at no extra round trip.
 */
function withVersionRider(db: Database, take: (version: number) => void): Database {
  let pending = true;
  const batch = (async (queries: readonly unknown[]) => {
    if (!pending) return db.batch(queries as never);
    pending = false;
    const [rows, ...results] = (await db.batch([versionQuery(db, {}), ...queries] as never)) as unknown[];
    take((rows as { version: number }[])[0]?.version ?? 0);
    return results;
  }) as Database['batch'];
  return Object.assign(Object.create(db) as Database, { batch });
}

// ---------------------------------------------------------------------------------------------
// Answers rendered by this isolate, kept per catalogue version

interface Rendered {
  version: number;
  body: ArrayBuffer;
  contentType: string;
}

/** Bounded so a Worker isolate (128 MB) keeps plenty of room: the hot pages of a storefront fit many times over. */
const rendered = new LruCache<Rendered>({ maxEntries: 1000, maxBytes: 16 * 1024 * 1024 });
/** A body larger than this is not kept (a 100-item page with every field is ~100 KB). */
const MAX_KEPT_BYTES = 1024 * 1024;
/**
 * While the catalogue keeps changing (orders decrement stock, which changes the version), a kept
 * answer is rarely still current, and checking it first would cost a second round trip on every
 * miss. So kept answers are only tried once no new version has been seen for this long
 * (CATALOGUE_CACHE_QUIET_MS).
 */
const QUIET_MS = 2_000;
const seen = { version: undefined as number | undefined, changedAt: 0 };

function observe(version: number, now = Date.now()) {
  if (seen.version !== version) {
    seen.version = version;
    seen.changedAt = now;
  }
}

/**
 * Who the answer was rendered for: one entry for every anonymous caller, and one per credential
 * and its rights otherwise (a role or permission change renders anew), since staff and vendors see
 * other statuses and scopes than the public.
 */
function viewOf(principal: Principal): string {
  switch (principal.kind) {
    case 'anonymous':
      return 'public';
    case 'api_key':
      return `key:${principal.id}:${principal.role ?? ''}:${principal.permissions.join(',')}`;
    case 'user':
      return `user:${principal.id}:${principal.role}:${principal.vendorId ?? ''}:${principal.permissions.join(',')}`;
  }
}

/** Request Cache-Control `no-cache` / `no-store` (or `Pragma: no-cache`): the client wants an answer rendered now. */
function wantsFresh(c: Context<AppEnv>): boolean {
  const directives = `${c.req.header('Cache-Control') ?? ''},${c.req.header('Pragma') ?? ''}`.toLowerCase();
  return /(^|[,\s])no-(cache|store)\b/.test(directives);
}

/**
 * Caching of catalogue reads (GET of products, categories, brands and what lies under them), on
 * two levels, both keyed by the catalogue version (catalogue_version, changed by triggers on every
 * catalogue write, stock changes included, to a random value so that no version is ever current
 * twice, even after a database restore):
 *
 * HTTP. An anonymous caller's answer carries `Cache-Control: public, ...`, `Vary: Authorization, X-D1-Bookmark`
 * and an ETag made of the version and the URL. With If-None-Match the version is read first (one
 * row) and a match is answered 304 with no body. Credentialed callers (who may see drafts, other
 * statuses, a vendor's view) get `Cache-Control: private, no-store` and no ETag.
 *
 * In the isolate. Each answer is kept in this isolate's memory (LRU, 16 MB) under the caller's view
 * (viewOf) and the URL, with the version its rows were read at. The next request for it reads the
 * version alone (one row, one round trip, which also carries a cached API key's check) and, if it
 * is unchanged, gets the kept bytes without the rows being read, rendered or serialised again
 * (`X-Store-Cache: hit`). Otherwise (`miss`) the handler runs with the version riding in its own
 * D1 batch (withVersionRider): still one round trip, and the tag names exactly the rows read. A
 * request with `Cache-Control: no-cache` skips the kept answer (`bypass`). A write landing between
 * the version read and the rows costs one more miss later, never a stale answer.
 *
 * Runs after authentication and rate limiting, so a hit or a 304 is counted like any request.
 */
export function catalogueCache() {
  return createMiddleware<AppEnv>(async function catalogueCache(c, next) {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
    const anonymous = c.var.principal.kind === 'anonymous';
    const url = new URL(c.req.url);
    const target = url.pathname + url.search;
    const key = `${viewOf(c.var.principal)} ${target}`;
    const fresh = wantsFresh(c);
    const quiet = Date.now() - seen.changedAt >= numberSetting(c.env.CATALOGUE_CACHE_QUIET_MS, QUIET_MS);
    const kept = fresh || !quiet ? undefined : rendered.get(key);
    const ifNoneMatch = anonymous ? c.req.header('If-None-Match') : undefined;
    const httpHeaders = (version: number | undefined) => {
      if (!anonymous) return c.header('Cache-Control', PRIVATE_CACHE_CONTROL);
      if (version !== undefined) c.header('ETag', etagOf(version, target));
      c.header('Cache-Control', PUBLIC_CACHE_CONTROL);
      // A shared cache must not answer a request carrying a bookmark (it asks for data at least that fresh) with an older copy.
      c.header('Vary', 'Authorization, X-D1-Bookmark');
    };

    let version: number | undefined;
    if (kept || ifNoneMatch) {
      version = await readVersion(c.var.db);
      observe(version);
      if (ifNoneMatch && matches(ifNoneMatch, etagOf(version, target))) {
        httpHeaders(version);
        return c.body(null, 304);
      }
      if (kept && kept.version === version) {
        httpHeaders(version);
        c.header('X-Store-Cache', 'hit');
        return c.body(kept.body, 200, { 'Content-Type': kept.contentType });
      }
    } else {
      c.set('db', withVersionRider(c.var.db, (read) => observe((version = read))));
    }
    await next();
    if (c.res.status !== 200) return;
    httpHeaders(version);
    c.header('X-Store-Cache', fresh ? 'bypass' : 'miss');
    if (version === undefined || c.req.method !== 'GET' || c.req.header('Cache-Control')?.toLowerCase().includes('no-store')) return;
    const body = await c.res.arrayBuffer();
    c.res = new Response(body, c.res);
    if (body.byteLength <= MAX_KEPT_BYTES) {
      rendered.set(key, { version, body, contentType: c.res.headers.get('Content-Type') ?? 'application/json' }, body.byteLength + key.length);
    }
  });
}
