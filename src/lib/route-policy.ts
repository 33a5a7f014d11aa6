import type { Config } from '../config';
import { accessExtension, type RouteAccess } from './route-access';

/**
 * What an operation asks of the middleware that runs before routing: declared on the route
 * (`apiRoute({ ..., policy: { cache: 'catalogue' } })`), defaulted here, shown in the OpenAPI
 * document (`x-rate-limited`, `x-cache`, `x-max-body-bytes`, `x-idempotency`) and read per request
 * through `routePolicy(c)` (src/middleware/route-policy.ts). docs/architecture.md, Route policies.
 */
export interface RoutePolicy {
  /** The largest request body, from the configuration (413 above it; src/middleware/body-limit.ts). */
  maxBodyBytes: (config: Config) => number;
  /**
   * Authenticated and counted against a rate limit (src/middleware/rate-limit.ts). `false`: the
   * request is answered without reading any credential and is never limited.
   */
  counted: boolean;
  /** `catalogue`: GET answers kept by catalogue version, with ETag and Cache-Control (src/middleware/catalogue-cache.ts). */
  cache: 'catalogue' | 'none';
  /**
   * Takes `Idempotency-Key` (src/middleware/idempotency.ts). A replay is scoped to the caller and to
   * each header in `scope` (headers that open a resource as a credential does, such as a cart token).
   */
  idempotency: false | { scope: readonly string[] };
  /**
   * Who may call it (src/lib/route-access.ts): the OpenAPI `security` and the guard come from it.
   * `apiRoute` requires it; only a route that went around `apiRoute` lacks it, and the access sweep
   * (test/http/access-sweep.test.ts) fails on such a route.
   */
  access?: RouteAccess;
}

export const DEFAULT_POLICY: RoutePolicy = {
  maxBodyBytes: (config) => config.MAX_BODY_BYTES,
  counted: true,
  cache: 'none',
  idempotency: false,
};

/** Where a route's resolved policy is kept on its config: a symbol, so the document's JSON leaves it out (the x- keys show it). */
export const ROUTE_POLICY = Symbol('routePolicy');

export type PolicyExtensions = {
  'x-rate-limited': boolean;
  'x-cache': RoutePolicy['cache'];
  'x-idempotency'?: { scope: string[] };
  'x-access'?: Record<string, unknown>;
};

/** The policy of a route declared with `policy`, each field defaulted. */
export function policyOf(declared: Partial<RoutePolicy> = {}): RoutePolicy {
  return { ...DEFAULT_POLICY, ...declared };
}

/**
 * The operation's extensions that show its policy. `x-max-body-bytes` depends on the server's
 * configuration and is added when the document is built (`bodyLimitExtensions`).
 */
export function policyExtensions(policy: RoutePolicy): PolicyExtensions {
  return {
    'x-rate-limited': policy.counted,
    'x-cache': policy.cache,
    ...(policy.idempotency ? { 'x-idempotency': { scope: [...policy.idempotency.scope] } } : {}),
    ...(policy.access ? { 'x-access': accessExtension(policy.access) } : {}),
  };
}

/** What the OpenAPI registry keeps of a route, as read for its policy. */
type Definition = { type: string; route?: { method: string; path: string; [ROUTE_POLICY]?: RoutePolicy } };

/** The policy a registered route declared (the default for one that went around `apiRoute`). */
export function declaredPolicy(route: { [ROUTE_POLICY]?: RoutePolicy }): RoutePolicy {
  return route[ROUTE_POLICY] ?? DEFAULT_POLICY;
}

/** Each registered operation's policy, by `METHOD /hono/:path` (the form Hono's router matches). */
export function policiesByRoute(definitions: readonly Definition[]): Map<string, RoutePolicy> {
  const policies = new Map<string, RoutePolicy>();
  for (const { type, route } of definitions) {
    if (type !== 'route' || !route) continue;
    const key = routeKey(route.method, route.path.replace(/\{([^}]+)\}/g, ':$1'));
    // Hono answers with the first route registered for a path; so does its policy.
    if (!policies.has(key)) policies.set(key, declaredPolicy(route));
  }
  return policies;
}

export const routeKey = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

/** `x-max-body-bytes` on every operation of `document`, as this server's configuration sets it. */
export function addBodyLimitExtensions(document: { paths?: object }, definitions: readonly Definition[], settings: Config): void {
  const paths = document.paths as Record<string, Record<string, Record<string, unknown> | undefined> | undefined> | undefined;
  for (const { type, route } of definitions) {
    if (type !== 'route' || !route) continue;
    const operation = paths?.[route.path]?.[route.method];
    if (operation) operation['x-max-body-bytes'] = declaredPolicy(route).maxBodyBytes(settings);
  }
}
