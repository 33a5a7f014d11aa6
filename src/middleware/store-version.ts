import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env';
import type { EdgeSettings } from './edge-settings';
import { ApiError } from '../lib/errors';
import { answerIn, isOlderThanLatest, isStoreVersion, LATEST_VERSION, VERSION_DATES, versionInfo } from '../versions/versions';

export const STORE_VERSION_HEADER = 'Store-Version';

/**
 * Dated versions (src/versions/, docs/versioning.md). A request is answered in the version its
 * `Store-Version` header names, else the one its key is pinned to, else the store's default
 * (`apiVersion` of the settings kept per isolate: src/middleware/edge-settings.ts, which it also makes
 * the request's `c.var.edgeSettings`). Handlers produce the newest shape
 * only; here, after them, a JSON answer in an older version has each newer change undone. Every
 * answer says its version in `Store-Version`; an unknown version in the header is 400 (answered in
 * the version the request would have had without it).
 */
export function storeVersion(edgeSettings: (c: Context<AppEnv>) => Promise<EdgeSettings>): MiddlewareHandler<AppEnv> {
  return async function storeVersion(c, next) {
    const asked = c.req.header(STORE_VERSION_HEADER);
    const refused = asked !== undefined && !isStoreVersion(asked);
    c.set('edgeSettings', () => edgeSettings(c));
    if (refused) c.res = unknownVersion();
    else await next();
    const version = await requestVersion(c, refused);
    if (isOlderThanLatest(version) && c.res.status >= 400 && c.res.headers.get('Content-Type')?.startsWith('application/json')) {
      c.res = await inVersion(c.res, version);
    }
    c.res.headers.set(STORE_VERSION_HEADER, version);
    const info = versionInfo(version);
    if (info?.deprecatedOn) c.res.headers.set('Deprecation', `@${Math.floor(Date.parse(info.deprecatedOn) / 1000)}`);
    if (info?.sunsetOn) c.res.headers.set('Sunset', new Date(info.sunsetOn).toUTCString());
  };
}

/**
 * The version the request is answered in, for a handler that says it (`GET /api`) or serves a
 * shape by it (the OpenAPI document).
 */
export async function requestVersion(c: Context<AppEnv>, refused = false): Promise<string> {
  const asked = refused ? undefined : c.req.header(STORE_VERSION_HEADER);
  return (asked && isStoreVersion(asked) && asked) || pinnedVersion(c) || (await storeDefaultVersion(c));
}

/** The store's default version (read once per isolate and kept: src/middleware/edge-settings.ts). */
export const storeDefaultVersion = async (c: Context<AppEnv>): Promise<string> => (await c.var.edgeSettings!()).apiVersion;

/** The version the request's key is pinned to (a secret or a publishable key); none for a user or no credential. */
function pinnedVersion(c: Context<AppEnv>): string | undefined {
  const principal = c.get('principal') as AppEnv['Variables']['principal'] | undefined;
  const pinned = principal && principal.kind !== 'user' ? principal.apiVersion : undefined;
  return pinned && isStoreVersion(pinned) ? pinned : undefined;
}

function unknownVersion(): Response {
  const error = ApiError.badHeader(STORE_VERSION_HEADER, `is not a version of this API; the versions are ${VERSION_DATES.join(', ')} (latest ${LATEST_VERSION})`);
  return Response.json(error.toBody(), { status: error.status });
}

/** The answer with its JSON body in `version`'s shape; its status and headers unchanged. */
async function inVersion(res: Response, version: string): Promise<Response> {
  const text = await res.clone().text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return res;
  }
  const shaped = answerIn(version, { status: res.status, body });
  if (shaped === body) return res;
  const headers = new Headers(res.headers);
  headers.delete('Content-Length');
  return new Response(JSON.stringify(shaped), { status: res.status, statusText: res.statusText, headers });
}
