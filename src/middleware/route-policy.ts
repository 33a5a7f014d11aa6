import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { AppEnv } from '../env';
import { DEFAULT_POLICY, policiesByRoute, routeKey, type RoutePolicy } from '../lib/route-policy';

type Definitions = Parameters<typeof policiesByRoute>[0];

/**
 * Finds the policy of the operation that will answer the request (src/lib/route-policy.ts), once,
 * before the middleware that reads it runs: Hono has matched the request's whole chain already, and
 * the first handler registered for a method (not `use` middleware) belongs to the route that
 * answers. Its policy comes from a map of the OpenAPI registry built once per app: one lookup per
 * request. A path no operation answers (a 404, the OpenAPI document, the docs UI) gets the defaults.
 */
export function resolveRoutePolicy(definitions: () => Definitions): MiddlewareHandler<AppEnv> {
  let policies: Map<string, RoutePolicy> | undefined;
  return (c, next) => {
    policies ??= policiesByRoute(definitions());
    const route = matchedRoutes(c).find((r) => r.method !== 'ALL');
    c.set('policy', (route && policies.get(routeKey(route.method, route.path))) || DEFAULT_POLICY);
    return next();
  };
}

/** The policy of the route answering `c` (the defaults outside the API, where resolveRoutePolicy does not run). */
export function routePolicy(c: Context<AppEnv>): RoutePolicy {
  return c.var.policy ?? DEFAULT_POLICY;
}
