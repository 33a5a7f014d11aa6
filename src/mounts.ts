import type { Hono } from 'hono';
import type { AppEnv } from './env';
import type { Redispatch } from './middleware/rate-limit';
import { MODULES } from './modules/registry';

/**
 * A router of the app: where it is mounted, the first path segments its routes take (`api/<segment>`
 * under `/api`, the first segment elsewhere), and how to load it. Routers are imported on the first
 * request that needs one, so a module's schemas and routes are built then, not at the Worker's
 * startup (docs/architecture.md#startup).
 */
export interface Mount {
  at: '/api' | '/admin' | '/docs' | '/';
  keys: readonly string[];
  load: (redispatch: Redispatch) => Promise<Hono<AppEnv>>;
}

/**
 * Every router, in the order the app matches them: the modules' (src/modules/registry.ts, each
 * declared in its module.ts), then the panel and the documentation pages. A request is answered by
 * an app of the mounts that claim its key (`mountKey`): routes of other mounts cannot match its
 * path, so it matches what an app of every mount would (test/http/mounts.test.ts checks each mount's
 * keys against its routes).
 */
export const MOUNTS: readonly Mount[] = [
  ...MODULES.flatMap((module): readonly Mount[] => module.routers),
  { at: '/admin', keys: ['admin'], load: async (redispatch) => (await import('./admin')).createAdminRouter(redispatch) },
  { at: '/docs', keys: ['docs'], load: async () => (await import('./docs')).docsRouter },
];

/** `api/<segment>` for a path under `/api` (`api/` for the index), else its first segment: which mounts can answer it. */
export function mountKey(path: string): string {
  const [, first = '', second = ''] = path.split('/', 3);
  return first === 'api' ? `api/${second}` : first;
}

/** The key of `/api/openapi.json`, whose app has every router. */
export const DOCUMENT_KEY = 'api/openapi.json';
const CLAIMED = new Set([...MOUNTS.flatMap((mount) => mount.keys), DOCUMENT_KEY]);

/**
 * The key of the app that answers `path`: its mountKey when a mount claims it (or it is the
 * document's), else '' (the app of no mount, which answers 404). Paths come from callers, so any
 * other key would be one more app kept per isolate.
 */
export function appKey(path: string): string {
  const key = mountKey(path);
  return CLAIMED.has(key) ? key : '';
}
