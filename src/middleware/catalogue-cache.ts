import { sql } from 'drizzle-orm';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import { catalogueVersion } from '../db/schema';
import type { AppEnv } from '../env';

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
export function catalogueETag(version: number, c: Context<AppEnv>): string {
  const url = new URL(c.req.url);
  return `W/"c${version}-${urlHash(url.pathname + url.search)}"`;
}

/** If-None-Match holds `etag` (weak comparison, RFC 9110 13.1.2) or is `*`. */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}

/**
 * HTTP caching of the public catalogue (GET of products, categories, brands and what lies under
 * them). For an anonymous caller the response carries `Cache-Control: public, ...`, `Vary:
 * Authorization` and an ETag made of the catalogue version (catalogue_version, bumped by triggers
 * on every catalogue write, stock changes included) and the URL. The version is read before the
 * handler runs: a write landing in between gives the body an older tag, which only costs one more
 * full answer later, never a stale 304. A matching If-None-Match is answered 304 with no body after
 * reading that one row. Credentialed callers (who may see drafts, other statuses, a vendor's view)
 * get `Cache-Control: private, no-store` and no ETag. Runs after authentication and rate limiting,
 * so a 304 is counted like any request.
 */
export function catalogueCache() {
  return createMiddleware<AppEnv>(async function catalogueCache(c, next) {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
    if (c.var.principal.kind !== 'anonymous') {
      await next();
      c.header('Cache-Control', PRIVATE_CACHE_CONTROL);
      return;
    }
    // Through db.all(sql) (D1's all(), not raw()), so X-D1-Rows-Read counts it.
    const [row] = await c.var.db.all<{ version: number }>(sql`SELECT ${catalogueVersion.version} AS version FROM ${catalogueVersion} WHERE ${catalogueVersion.id} = 1`);
    const etag = catalogueETag(row?.version ?? 0, c);
    const cacheHeaders = { ETag: etag, 'Cache-Control': PUBLIC_CACHE_CONTROL, Vary: 'Authorization' };
    if (matches(c.req.header('If-None-Match'), etag)) {
      for (const [name, value] of Object.entries(cacheHeaders)) c.header(name, value);
      return c.body(null, 304);
    }
    await next();
    if (c.res.status !== 200) return;
    for (const [name, value] of Object.entries(cacheHeaders)) c.header(name, value);
  });
}
