import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { readVersion, versionRider } from '../d1/catalogue-version';
import { ride } from '../d1/request-db';
import type { AppEnv } from '../env';
import { config } from '../config';
import { coloMatch, coloPut } from '../lib/colo-cache';
import { fnv1a } from '../lib/fnv';
import { ifNoneMatchHolds } from '../lib/if-none-match';
import { LruCache } from '../lib/lru';
import { answerHeader } from '../lib/answer-header';
import type { Principal } from '../lib/access';
import { continuationKey } from '../lib/query/keyset';
import { routePolicy } from './route-policy';
import { PRIVATE_CACHE_CONTROL } from './cache-control';
import { keptPerIsolate } from '../lib/isolate-state';

/** Anonymous catalogue reads: a CDN may keep them a minute and serve them stale while it revalidates. */
export const PUBLIC_CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=300';

/** The ETag of a public catalogue read: the catalogue version and a hash of the URL (path and query), so two URLs differ. */
function etagOf(version: number, target: string): string {
  return `W/"c${version}-${fnv1a(target).toString(36)}"`;
}

// ---------------------------------------------------------------------------------------------
// Answers rendered by this isolate, kept per catalogue version

interface Rendered {
  version: number;
  /** The envelope's JSON text, or the bytes of another answer. */
  body: string | ArrayBuffer;
  contentType: string;
}

/** What a kept body weighs: its bytes, or for text its length (JSON is mostly ASCII: near enough for a budget). */
const sizeOf = (body: string | ArrayBuffer) => (typeof body === 'string' ? body.length : body.byteLength);

/** Bounded so a Worker isolate (128 MB) keeps plenty of room: the hot pages of a storefront fit many times over. */
const rendered = new LruCache<Rendered>({ maxEntries: 1000, maxBytes: 16 * 1024 * 1024 });
/** A body larger than this is not kept (a 100-item page with every field is ~100 KB). */
const MAX_KEPT_BYTES = 1024 * 1024;
/**
 * What this isolate knows of the catalogue version: the last one read, when it last changed and
 * when D1 last confirmed it. A version confirmed within CATALOGUE_CACHE_QUIET_MS is trusted:
 * requests look their answer up by it with no D1 round trip at all, so a write reaches a shopper
 * at most that long after this isolate's last version read (plus that read). Past that, kept
 * answers are tried (one round trip for the version first) only once no new version has been seen
 * for as long: while the catalogue keeps changing (orders decrement stock, which changes the
 * version) a kept answer is rarely still current, and checking it first would cost a second round
 * trip on every miss.
 */
const seen = { version: undefined as number | undefined, changedAt: 0, confirmedAt: 0 };
keptPerIsolate(() => {
  rendered.clear();
  Object.assign(seen, { version: undefined, changedAt: 0, confirmedAt: 0 });
});

function observe(version: number, now = Date.now()) {
  if (seen.version !== version) {
    seen.version = version;
    seen.changedAt = now;
  }
  seen.confirmedAt = now;
}

/**
 * After any write through this isolate, its trusted version is read again before it is used: the
 * write may have changed it, and whoever wrote often reads next (an admin saving a product).
 */
export function distrustVersionAfterWrites() {
  return createMiddleware<AppEnv>(async function distrustVersionAfterWrites(c, next) {
    if (c.req.method === 'GET' || c.req.method === 'HEAD' || c.req.method === 'OPTIONS') return next();
    await next();
    seen.confirmedAt = 0;
  });
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
 * Caching of catalogue reads (the GET operations whose route policy says `cache: 'catalogue'`:
 * products, categories, brands, pages, menus, banners and what lies under them), on three levels, all keyed by the catalogue version (catalogue_version,
 * changed by triggers on every catalogue or content write, stock changes included, and by the
 * one-minute cron when a scheduled page or banner comes due, to a random value so that no version
 * is ever current twice, even after a database restore):
 *
 * HTTP. An anonymous caller's answer carries `Cache-Control: public, ...`, `Vary: Authorization,
 * X-D1-Bookmark` and an ETag made of the version and the URL; If-None-Match that matches is
 * answered 304 with no body. Credentialed callers (who may see drafts, other statuses, a vendor's
 * view) get `Cache-Control: private, no-store` and no ETag.
 *
 * In the isolate. Each answer is kept in this isolate's memory (LRU, 16 MB) under the caller's view
 * (viewOf) and the URL, with the version its rows were read at (`X-Store-Cache: hit`).
 *
 * In the colo. Anonymous answers are also put in the data centre's cache (src/lib/colo-cache.ts)
 * under the version and the URL, for the colo's other isolates (`X-Store-Cache: colo-hit`).
 *
 * Which version an answer is looked up by: while this isolate's version is trusted (confirmed by D1
 * within CATALOGUE_CACHE_QUIET_MS, see `seen`), that one, and a hit or a 304 costs no D1 round
 * trip. Otherwise, once the version has been quiet that long and a kept answer may match, the
 * version is read alone first (one row, one round trip, which also carries a cached API key's
 * check). On a miss (`miss`) the handler runs with the version riding in its own D1 batch
 * (versionRider, src/d1/catalogue-version.ts): still one round trip, and the tag names exactly the rows read. A request
 * with `Cache-Control: no-cache` skips every kept answer (`bypass`); one with a bookmark never
 * trusts the isolate's version (it asks for data at least that fresh, so reads it in its session).
 * A write landing between the version read and the rows costs one more miss later, never an answer
 * older than its tag.
 *
 * Runs after authentication and rate limiting, so a hit or a 304 is counted like any request.
 */
export function catalogueCache() {
  return createMiddleware<AppEnv>(async function catalogueCache(c, next) {
    if ((c.req.method !== 'GET' && c.req.method !== 'HEAD') || routePolicy(c).cache !== 'catalogue') return next();
    const anonymous = c.var.principal.kind === 'anonymous';
    const url = new URL(c.req.url);
    const target = url.pathname + url.search + continuationKey(c.req.raw);
    const key = `${viewOf(c.var.principal)} ${target}`;
    const fresh = wantsFresh(c);
    const now = Date.now();
    const quietMs = config(c.env).CATALOGUE_CACHE_QUIET_MS;
    const trusted = !fresh && c.var.sessionStart !== 'bookmark' && seen.version !== undefined && now - seen.confirmedAt < quietMs;
    const quiet = now - seen.changedAt >= quietMs;
    const ifNoneMatch = anonymous ? c.req.header('If-None-Match') : undefined;
    const httpHeaders = (version: number | undefined) => {
      // Credentialed reads may show drafts, other statuses or a vendor's view: never stored by anyone.
      if (!anonymous) return answerHeader(c, 'Cache-Control', PRIVATE_CACHE_CONTROL);
      if (version !== undefined) answerHeader(c, 'ETag', etagOf(version, target));
      answerHeader(c, 'Cache-Control', PUBLIC_CACHE_CONTROL);
      // A shared cache must not answer a request carrying a bookmark (it asks for data at least that fresh) with an older copy.
      answerHeader(c, 'Vary', 'Authorization, X-D1-Bookmark');
    };
    const notModified = (version: number) => {
      httpHeaders(version);
      return c.body(null, 304);
    };
    /** The kept answer for `version`, from this isolate or (anonymous callers) the colo, or a 304. */
    const answerKept = async (version: number): Promise<Response | undefined> => {
      if (ifNoneMatchHolds(ifNoneMatch, etagOf(version, target), false)) return notModified(version);
      let kept = rendered.get(key);
      let level = 'hit';
      if (kept?.version !== version) kept = undefined;
      if (!kept && anonymous) {
        const colo = await coloMatch(url.origin, version, target);
        if (colo) {
          kept = { version, ...colo };
          level = 'colo-hit';
          keep(kept);
        }
      }
      if (!kept) return undefined;
      if (ifNoneMatchHolds(ifNoneMatch, undefined, true)) return notModified(version);
      httpHeaders(version);
      c.header('X-Store-Cache', level);
      return c.body(kept.body, 200, { 'Content-Type': kept.contentType });
    };
    const keep = (entry: Rendered) => {
      const size = sizeOf(entry.body);
      if (size <= MAX_KEPT_BYTES) rendered.set(key, entry, size + key.length);
    };

    let version: number | undefined;
    if (trusted) {
      const answer = await answerKept(seen.version!);
      if (answer) return answer;
    } else if (!fresh && quiet && (ifNoneMatch || rendered.get(key))) {
      version = await readVersion(c.var.db);
      observe(version);
      const answer = await answerKept(version);
      if (answer) return answer;
    }
    if (version === undefined)
      ride(
        c,
        'catalogueVersion',
        versionRider((read) => observe((version = read))),
      );
    await next();
    if (c.res.status !== 200) return;
    httpHeaders(version);
    answerHeader(c, 'X-Store-Cache', fresh ? 'bypass' : 'miss');
    if (version !== undefined && c.req.method === 'GET' && !c.req.header('Cache-Control')?.toLowerCase().includes('no-store')) {
      // The envelope's own text when the answer is the envelope as sent (src/lib/envelope.ts), else the body read back.
      let body: string | ArrayBuffer | undefined = c.var.renderedJson?.response === c.res ? c.var.renderedJson.text : undefined;
      if (body === undefined) {
        body = await c.res.arrayBuffer();
        c.res = new Response(body, c.res);
      }
      const entry = { version, body, contentType: c.res.headers.get('Content-Type') ?? 'application/json' };
      keep(entry);
      if (anonymous && !fresh && sizeOf(body) <= MAX_KEPT_BYTES) coloPut((promise) => c.executionCtx.waitUntil(promise), url.origin, version, target, entry);
    }
    // Rendered now, so it exists: `*` (or a tag of this version) is answered as a kept answer would be.
    if (ifNoneMatchHolds(ifNoneMatch, version === undefined ? undefined : etagOf(version, target), true)) c.res = new Response(null, { status: 304, headers: c.res.headers });
  });
}
