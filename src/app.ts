import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { requestId } from 'hono/request-id';
import { timing } from 'hono/timing';
import { panelBodyLimit } from './admin/body-limits';
import { config, ConfigError } from './config';
import type { AppEnv } from './env';
import { ApiError, detailOf } from './lib/errors';
import { validationHook } from './lib/validation';
import { apiVersion, versionAliasPath } from './middleware/api-version';
import { bodyLimit } from './middleware/body-limit';
import { privateByDefault } from './middleware/cache-control';
import { catalogueCache, distrustVersionAfterWrites } from './middleware/catalogue-cache';
import { emptyJsonBody } from './middleware/empty-json-body';
import { d1Metrics } from './middleware/d1-metrics';
import { publishEvents } from './middleware/publish-events';
import { authenticateAndRateLimit, type Redispatch } from './middleware/rate-limit';
import { csvExport } from './middleware/csv-export';
import { resolveRoutePolicy, routePolicy } from './middleware/route-policy';
import { cors } from './middleware/cors';
import { services } from './middleware/services';
import { isStaleCredential } from './d1/verified';
import { readEdgeSettings } from './modules/settings/startup';
import { type EdgeSettings, storeEdgeSettings } from './middleware/edge-settings';
import { storeVersion } from './middleware/store-version';
import { FIRST_VERSION } from './versions/versions';
import { appKey, DOCUMENT_KEY, MOUNTS, type Mount } from './mounts';
import type { Bindings } from './env';

/** The Worker's HTTP side: `fetch` answers a request with the app of the mounts its path needs (src/mounts.ts). */
export interface StoreApp {
  fetch(request: Request, env: Bindings, ctx: Parameters<OpenAPIHono<AppEnv>['fetch']>[2]): Promise<Response>;
  /** The app with every router mounted and the OpenAPI document: what `/api/openapi.json` is built from. */
  whole(): Promise<OpenAPIHono<AppEnv>>;
}

/**
 * The app, built per group of mounts on the first request that needs it: a storefront's first request
 * loads the catalogue's modules, not the panel's or the reports' (docs/architecture.md#startup).
 * Every group's app has the same middleware (`buildApp`); module state is shared, being the modules'.
 */
export function createApp(mounts: readonly Mount[] = MOUNTS): StoreApp {
  const byKey = new Map<string, OpenAPIHono<AppEnv>>();
  const building = new Map<string, Promise<OpenAPIHono<AppEnv>>>();
  const appFor = (key: string): Promise<OpenAPIHono<AppEnv>> => {
    const needed = key === DOCUMENT_KEY ? mounts : mounts.filter((mount) => mount.keys.includes(key));
    const group = key === DOCUMENT_KEY ? key : needed.map((mount) => mounts.indexOf(mount)).join();
    let app = building.get(group);
    if (!app) {
      app = buildApp(needed, redispatch, key === DOCUMENT_KEY).catch((error: unknown) => {
        building.delete(group);
        throw error;
      });
      building.set(group, app);
    }
    return app.then((built) => {
      byKey.set(key, built);
      return built;
    });
  };
  const store: StoreApp = {
    async fetch(request, env, ctx) {
      const key = appKey(versionAliasPath(request));
      let app = byKey.get(key);
      if (!app) {
        try {
          app = await appFor(key);
        } catch (error) {
          // No app to answer in: the envelope's 500 here, and the next request loads it again.
          const requestId = request.headers.get('X-Request-Id') ?? crypto.randomUUID();
          console.error(
            JSON.stringify({ level: 'error', requestId, message: 'loading the routers of a request failed', key, error: String(error), stack: (error as Error)?.stack }),
          );
          const failure = new ApiError('INTERNAL_ERROR', `An unexpected error occurred. Quote request id ${requestId} when reporting it.`);
          return Response.json(failure.toBody(), { status: 500, headers: { 'X-Request-Id': requestId } });
        }
      }
      return app.fetch(request, env, ctx);
    },
    whole: () => appFor(DOCUMENT_KEY),
  };
  const redispatch: Redispatch = (request, c) => store.fetch(request, c.env, c.executionCtx);
  return store;
}

/** The app of `mounts`, in their order, behind the whole middleware chain; with `/api/openapi.json` when `documented`. */
async function buildApp(mounts: readonly Mount[], redispatch: Redispatch, documented: boolean) {
  const routers = await Promise.all(mounts.map((mount) => mount.load(redispatch)));
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook, getPath: versionAliasPath });

  // Server-Timing (auth, ratelimit, total) in development, so the cost of each step can be read off a response.
  const serverTiming = timing({ enabled: (c) => config(c.env).ENVIRONMENT === 'development', totalDescription: 'Total' });
  // checkConfig: an invalid variable fails every request, naming it, instead of acting as its default.
  // d1Metrics: X-D1-Rows-Read and X-D1-Round-Trips in development (src/middleware/d1-metrics.ts); it
  // sets its rider before services() builds the request's database (src/d1/request-db.ts fixes the
  // layers' order, whatever the middlewares' order), so the database is built once with it.
  app.use('*', requestId({ headerName: 'X-Request-Id' }), checkConfig, serverTiming, apiVersion(), d1Metrics());
  // privateByDefault: an /api answer with no Cache-Control of its own is `private, no-store`
  // (src/middleware/cache-control.ts); outside everything below, so it sees their errors too.
  app.use('/api/*', privateByDefault());
  app.use('*', services());
  // Each route's policy (src/lib/route-policy.ts, declared in its routes file) decides what the middleware below does with it.
  const counted = (c: Context<AppEnv>) => routePolicy(c).counted;
  // CORS first: a preflight is answered before anything counts or reads it (src/middleware/cors.ts).
  app.use(
    '/api/*',
    cors((c) => edgeSettings(c).then((settings) => settings.allowedOrigins)),
  );
  // storeVersion: the answer in the request's dated version (src/versions/), after everything inside
  // has answered in the newest shape; inside CORS, so a refused version still gets the grant.
  app.use('/api/*', storeVersion(edgeSettings));
  app.use(
    '/api/*',
    resolveRoutePolicy(() => app.openAPIRegistry.definitions),
  );
  // catalogueCache: catalogue and content reads kept by catalogue version, with ETag and Cache-Control
  // (src/middleware/catalogue-cache.ts), on the routes whose policy says `cache: 'catalogue'`.
  app.use(
    '/api/*',
    bodyLimit(),
    only(counted, authenticateAndRateLimit(redispatch)),
    emptyJsonBody(),
    publishEvents(),
    csvExport(() => app.openAPIRegistry.definitions, redispatch),
    catalogueCache(),
  );
  app.use('*', distrustVersionAfterWrites());

  // The panel's form posts have the API's body limits (src/admin/body-limits.ts), checked before the CSRF
  // check parses them; its writes publish their outbox events like the API's (src/middleware/publish-events.ts).
  app.use('/admin/*', bodyLimit(panelBodyLimit), publishEvents());
  mounts.forEach((mount, i) => app.route(mount.at, routers[i]!));
  if (documented) await (await import('./docs/api-document')).documentApp(app);
  app.notFound((c) => errorResponse(c, new ApiError('NOT_FOUND', `No route for ${c.req.method} ${c.req.path}`)));
  // A stale cached key is not an error: src/middleware/rate-limit.ts answers the request again.
  app.onError((error, c) => (isStaleCredential(error) ? c.body(null, 503) : errorResponse(c, toApiError(error, c))));
  return app;
}

/** Parses the variables (src/config.ts), once per isolate: a ConfigError answers 500 (naming the bad ones in development). */
const checkConfig: MiddlewareHandler<AppEnv> = (c, next) => {
  config(c.env);
  return next();
};

/** When the settings cannot be read: no origin allowed beyond the environment's, the published contract, a generic name. */
const EDGE_FALLBACK: EdgeSettings = { allowedOrigins: [], apiVersion: FIRST_VERSION, storeName: 'Store' };

/** The settings every request may need before its handler, kept per isolate (src/middleware/edge-settings.ts). */
function edgeSettings(c: Context<AppEnv>): Promise<EdgeSettings> {
  return storeEdgeSettings(
    {
      read: () => readEdgeSettings(c.var.db),
      waitUntil: (promise) => c.executionCtx.waitUntil(promise),
      onError: (error) => console.error(JSON.stringify({ level: 'error', requestId: c.var.requestId, message: 'store settings not read', error: String(error) })),
    },
    EDGE_FALLBACK,
  );
}

/** Runs `middleware` only for requests that `applies` accepts. */
function only(applies: (c: Context<AppEnv>) => boolean, middleware: MiddlewareHandler<AppEnv>): MiddlewareHandler<AppEnv> {
  return (c, next) => (applies(c) ? middleware(c, next) : next());
}

function errorResponse(c: Context<AppEnv>, error: ApiError) {
  for (const [name, value] of Object.entries(error.headers)) c.header(name, value);
  return c.json(error.toBody(), error.status);
}

/** Maps anything thrown to the error envelope; unexpected errors are logged, never shown. */
function toApiError(error: unknown, c: Context<AppEnv>): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof HTTPException) {
    if (error.status === 415) {
      return new ApiError('INVALID_REQUEST', 'Request body must be JSON (Content-Type: application/json)', {
        status: 415,
        details: [detailOf({ field: 'Content-Type', problem: 'must be application/json' })],
      });
    }
    if (error.status === 400) {
      return new ApiError('INVALID_REQUEST', 'Request body is not valid JSON', { details: [detailOf({ field: 'body', problem: 'is not valid JSON', code: 'invalid_format' })] });
    }
    if (error.status < 500) return new ApiError('INVALID_REQUEST', error.message || 'Bad request', { status: error.status as never });
  }
  const requestId = c.get('requestId');
  if (error instanceof ConfigError) {
    // The operator's mistake: the log names the variable; so does the answer in development, where
    // the caller is the operator. A public store does not tell every caller how it is configured.
    console.error(JSON.stringify({ level: 'error', requestId, message: error.message }));
    const shown = c.env.ENVIRONMENT === 'development' ? error.message : "The store's configuration is invalid (its logs name the variable)";
    return new ApiError('INTERNAL_ERROR', `${shown}. Quote request id ${requestId} when reporting it.`);
  }
  console.error(JSON.stringify({ level: 'error', requestId, method: c.req.method, path: c.req.path, error: String(error), stack: (error as Error)?.stack }));
  return new ApiError('INTERNAL_ERROR', `An unexpected error occurred. Quote request id ${requestId} when reporting it.`);
}
