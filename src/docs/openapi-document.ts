import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, Handler } from 'hono';
import type { AppEnv } from '../env';
import { config } from '../config';
import { ifNoneMatchHolds } from '../lib/if-none-match';
import { addBodyLimitExtensions } from '../lib/route-policy';
import { ApiError } from '../lib/errors';
import { requestVersion } from '../middleware/store-version';
import type { OpenApiDocument } from '../versions/change';
import { documentIn, isStoreVersion, LATEST_VERSION, VERSION_DATES } from '../versions/versions';

type DocumentConfig = Parameters<OpenAPIHono<AppEnv>['getOpenAPI31Document']>[0];

/** Stands in for the request's origin in the kept text; a NUL cannot occur in any real value of the document. */
const ORIGIN_PLACEHOLDER = '\u0000origin\u0000';

interface Kept {
  /** The JSON text on either side of the origin. */
  before: string;
  after: string;
  etag: string;
}

let builds = 0;
/** How many times this isolate has built an OpenAPI document: tests check that a second request builds none. */
export const openApiBuilds = () => builds;

/**
 * GET /api/openapi.json. Generating the document walks every route's schemas (~600 KB of JSON, tens
 * of milliseconds), so it is built once per app, on first use, and kept as text. Only its `servers`
 * entry depends on the request (its origin): the text is kept split around it and joined per
 * request. The ETag is the hash of the text before joining: the origin is part of the URL, so a
 * given URL always gets the same bytes for the same tag. `If-None-Match` that holds is 304.
 * `configure(origin)` gives the document's top level (info, servers, tags); each operation's
 * `x-max-body-bytes` is its route policy's under this server's configuration. The document is in
 * the request's API version (`?version=`, else as for any request: src/middleware/store-version.ts),
 * each version's kept on its first use.
 */
export function openApiDocument(app: OpenAPIHono<AppEnv>, configure: (origin: string) => DocumentConfig): Handler<AppEnv> {
  const kept = new Map<string, Promise<Kept>>();
  const build = async (env: AppEnv['Bindings'], version: string): Promise<Kept> => {
    builds += 1;
    const newest = app.getOpenAPI31Document(configure(ORIGIN_PLACEHOLDER));
    // Body limits are variables: the document says this server's (the configuration is the isolate's, as the document is).
    addBodyLimitExtensions(newest, app.openAPIRegistry.definitions, config(env));
    const document = version === LATEST_VERSION ? { ...newest, info: { ...newest.info, version } } : documentIn(version, newest as unknown as OpenApiDocument);
    const text = JSON.stringify(document);
    const parts = text.split(JSON.stringify(ORIGIN_PLACEHOLDER));
    if (parts.length !== 2) throw new Error(`The OpenAPI document names its origin ${parts.length - 1} times, not once`);
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
    const etag = `"${Array.from(digest.subarray(0, 12), (byte) => byte.toString(16).padStart(2, '0')).join('')}"`;
    return { before: parts[0]!, after: parts[1]!, etag };
  };
  return async (c: Context<AppEnv>) => {
    const version = c.req.query('version') ?? (await requestVersion(c));
    if (!isStoreVersion(version)) throw ApiError.badParameter('version', `is not a version of this API; the versions are ${VERSION_DATES.join(', ')}`);
    let document = kept.get(version);
    if (!document) {
      document = build(c.env, version).catch((error: unknown) => {
        kept.delete(version);
        throw error;
      });
      kept.set(version, document);
    }
    const { before, after, etag } = await document;
    // Revalidated on every use, so a deploy's new document is seen at once; a 304 costs no body.
    const headers = { ETag: etag, 'Cache-Control': 'no-cache' };
    if (ifNoneMatchHolds(c.req.header('If-None-Match'), etag, true)) return c.body(null, 304, headers);
    const origin = JSON.stringify(new URL(c.req.url).origin);
    return c.body(before + origin + after, 200, { ...headers, 'Content-Type': 'application/json' });
  };
}
