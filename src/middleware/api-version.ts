import { createMiddleware } from 'hono/factory';
import { getPath } from 'hono/utils/url';

export const API_VERSION = 'v1';
const VERSIONED_PREFIX = `/api/${API_VERSION}`;

/** Every response names the path version (`/api/v1`); the dated version of its shapes is `Store-Version` (src/middleware/store-version.ts). */
export function apiVersion() {
  return createMiddleware(async function apiVersion(c, next) {
    await next();
    c.res.headers.set('API-Version', API_VERSION);
  });
}

/**
 * Routing path for Hono: `/api/v1/...` is an alias of `/api/...`, so one route table (and one
 * OpenAPI document) serves both spellings.
 */
export function versionAliasPath(request: Request): string {
  const path = getPath(request);
  if (path === VERSIONED_PREFIX || path.startsWith(`${VERSIONED_PREFIX}/`)) return `/api${path.slice(VERSIONED_PREFIX.length)}`;
  return path;
}
