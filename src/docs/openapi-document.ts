import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, Handler } from 'hono';
import type { AppEnv } from '../env';
import { config } from '../config';
import { ifNoneMatchHolds } from '../lib/if-none-match';
import { addBodyLimitExtensions } from '../lib/route-policy';

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
 * `x-max-body-bytes` is its route policy's under this server's configuration.
 */
export function openApiDocument(app: OpenAPIHono<AppEnv>, configure: (origin: string) => DocumentConfig): Handler<AppEnv> {
  let kept: Promise<Kept> | undefined;
  const build = async (env: AppEnv['Bindings']): Promise<Kept> => {
    builds += 1;
    const document = app.getOpenAPI31Document(configure(ORIGIN_PLACEHOLDER));
    // Body limits are variables: the document says this server's (the configuration is the isolate's, as the document is).
    addBodyLimitExtensions(document, app.openAPIRegistry.definitions, config(env));
    const text = JSON.stringify(document);
    const parts = text.split(JSON.stringify(ORIGIN_PLACEHOLDER));
    if (parts.length !== 2) throw new Error(`The OpenAPI document names its origin ${parts.length - 1} times, not once`);
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
    const etag = `"${Array.from(digest.subarray(0, 12), (byte) => byte.toString(16).padStart(2, '0')).join('')}"`;
    return { before: parts[0]!, after: parts[1]!, etag };
  };
  return async (c: Context<AppEnv>) => {
    kept ??= build(c.env).catch((error: unknown) => {
      kept = undefined;
      throw error;
    });
    const { before, after, etag } = await kept;
    // Revalidated on every use, so a deploy's new document is seen at once; a 304 costs no body.
    const headers = { ETag: etag, 'Cache-Control': 'no-cache' };
    if (ifNoneMatchHolds(c.req.header('If-None-Match'), etag, true)) return c.body(null, 304, headers);
    const origin = JSON.stringify(new URL(c.req.url).origin);
    return c.body(before + origin + after, 200, { ...headers, 'Content-Type': 'application/json' });
  };
}
