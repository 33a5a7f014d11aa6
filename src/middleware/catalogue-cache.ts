import { eq, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { Database } from '../db/client';
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

/** The catalogue version row, as a statement that can join any batch. */
function versionQuery(db: Database) {
  return db.select({ version: catalogueVersion.version }).from(catalogueVersion).where(eq(catalogueVersion.id, 1));
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
    const [rows, ...results] = (await db.batch([versionQuery(db), ...queries] as never)) as unknown[];
    take((rows as { version: number }[])[0]?.version ?? 0);
    return results;
  }) as Database['batch'];
  return Object.assign(Object.create(db) as Database, { batch });
}

/**
 * HTTP caching of the public catalogue (GET of products, categories, brands and what lies under
 * them). For an anonymous caller the response carries `Cache-Control: public, ...`, `Vary:
 * Authorization` and an ETag made of the catalogue version (catalogue_version, bumped by triggers
 * on every catalogue write, stock changes included) and the URL.
 *
 * - With If-None-Match, the version is read first (one row): a match is answered 304 with no body;
 *   otherwise the handler runs and the body gets that tag (a write landing in between makes the tag
 *   older than the body, which costs one more full answer later, never a stale 304).
 * - Without it, the version rides in the handler's own D1 batch (withVersionRider), so the request
 *   stays one round trip and the tag names exactly the rows read. A handler that reads without a
 *   batch gets no ETag (Cache-Control still applies).
 *
 * Credentialed callers (who may see drafts, other statuses, a vendor's view) get `Cache-Control:
 * private, no-store` and no ETag. Runs after authentication and rate limiting, so a 304 is counted
 * like any request.
 */
export function catalogueCache() {
  return createMiddleware<AppEnv>(async function catalogueCache(c, next) {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
    if (c.var.principal.kind !== 'anonymous') {
      await next();
      c.header('Cache-Control', PRIVATE_CACHE_CONTROL);
      return;
    }
    const ifNoneMatch = c.req.header('If-None-Match');
    let version: number | undefined;
    if (ifNoneMatch) {
      // Through db.all(sql) (D1's all(), not raw()), so X-D1-Rows-Read counts it.
      const [row] = await c.var.db.all<{ version: number }>(sql`SELECT ${catalogueVersion.version} AS version FROM ${catalogueVersion} WHERE ${catalogueVersion.id} = 1`);
      version = row?.version ?? 0;
      if (matches(ifNoneMatch, catalogueETag(version, c))) {
        c.header('ETag', catalogueETag(version, c));
        c.header('Cache-Control', PUBLIC_CACHE_CONTROL);
        c.header('Vary', 'Authorization');
        return c.body(null, 304);
      }
    } else {
      c.set('db', withVersionRider(c.var.db, (read) => (version = read)));
    }
    await next();
    if (c.res.status !== 200) return;
    if (version !== undefined) c.header('ETag', catalogueETag(version, c));
    c.header('Cache-Control', PUBLIC_CACHE_CONTROL);
    c.header('Vary', 'Authorization');
  });
}
