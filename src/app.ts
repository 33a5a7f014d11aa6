import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import { requestId } from 'hono/request-id';
import { timing } from 'hono/timing';
import { createAdminRouter } from './admin';
import { panelBodyLimit } from './admin/body-limits';
import { docsRouter } from './docs';
import { openApiDocument } from './docs/openapi-document';
import { config, ConfigError } from './config';
import type { AppEnv } from './env';
import { GRANT_RULE } from './lib/access';
import { FIELDS_SELECTION_EXTENSION, FIELDS_SELECTION_NOTE } from './lib/query';
import { ApiError, detailOf } from './lib/errors';
import { validationHook } from './lib/validation';
import { API_VERSION, apiVersion, versionAliasPath } from './middleware/api-version';
import { bodyLimit } from './middleware/body-limit';
import { catalogueCache, distrustVersionAfterWrites } from './middleware/catalogue-cache';
import { emptyJsonBody } from './middleware/empty-json-body';
import { d1Metrics } from './middleware/d1-metrics';
import { publishEvents } from './middleware/publish-events';
import { EVENT_TYPES } from './lib/events';
import { authenticateAndRateLimit, type Redispatch } from './middleware/rate-limit';
import { csvExport } from './middleware/csv-export';
import { resolveRoutePolicy, routePolicy } from './middleware/route-policy';
import { cors } from './middleware/cors';
import { services } from './middleware/services';
import { isStaleCredential } from './middleware/verified-d1';
import { apiIndexRouter } from './modules/api-index';
import { apiKeysRouter } from './modules/api-keys';
import { auditLogRouter } from './modules/audit-log';
import { authRouter } from './modules/auth';
import { bannersRouter } from './modules/banners';
import { brandsRouter } from './modules/brands';
import { cartsRouter } from './modules/carts';
import { categoriesRouter } from './modules/categories';
import { couponsRouter } from './modules/coupons';
import { customersRouter } from './modules/customers';
import { healthRouter } from './modules/health';
import { inventoryRouter } from './modules/inventory';
import { notificationsRouter } from './modules/notifications';
import { mediaFilesRouter, mediaRouter } from './modules/media';
import { menusRouter } from './modules/menus';
import { ordersRouter } from './modules/orders';
import { pagesRouter } from './modules/pages';
import { paymentsRouter } from './modules/payments';
import { productsRouter } from './modules/products';
import { reportsRouter } from './modules/reports';
import { importsRouter } from './modules/imports';
import { rolesRouter } from './modules/roles';
import { settingsRouter } from './modules/settings';
import { readAllowedOrigins } from './modules/settings/settings.service';
import { shipmentsRouter } from './modules/shipments';
import { usersRouter } from './modules/users';
import { vendorsRouter } from './modules/vendors';
import { webhooksRouter } from './modules/webhooks';
import { registerEventWebhooks } from './webhooks/openapi-webhooks';

export function createApp() {
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook, getPath: versionAliasPath });

  // Server-Timing (auth, ratelimit, total) in development, so the cost of each step can be read off a response.
  const serverTiming = timing({ enabled: (c) => config(c.env).ENVIRONMENT === 'development', totalDescription: 'Total' });
  // checkConfig: an invalid variable fails every request, naming it, instead of acting as its default.
  // d1Metrics: X-D1-Rows-Read and X-D1-Round-Trips in development (src/middleware/d1-metrics.ts).
  app.use('*', requestId({ headerName: 'X-Request-Id' }), checkConfig, serverTiming, apiVersion(), services(), d1Metrics());
  // Each route's policy (src/lib/route-policy.ts, declared in its routes file) decides what the middleware below does with it.
  const counted = (c: Context<AppEnv>) => routePolicy(c).counted;
  const redispatch: Redispatch = async (request, c) => app.fetch(request, c.env, c.executionCtx);
  // CORS first: a preflight is answered before anything counts or reads it (src/middleware/cors.ts).
  app.use('/api/*', cors((c) => readAllowedOrigins(c.var.db)));
  app.use('/api/*', resolveRoutePolicy(() => app.openAPIRegistry.definitions));
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

  app.route('/api', apiIndexRouter);
  app.route('/api', healthRouter);
  app.route('/api', productsRouter);
  app.route('/api', mediaRouter);
  app.route('/api', categoriesRouter);
  app.route('/api', brandsRouter);
  app.route('/api', authRouter);
  app.route('/api', customersRouter);
  app.route('/api', usersRouter);
  app.route('/api', vendorsRouter);
  app.route('/api', rolesRouter);
  app.route('/api', apiKeysRouter);
  app.route('/api', settingsRouter);
  app.route('/api', couponsRouter);
  app.route('/api', cartsRouter);
  app.route('/api', ordersRouter);
  app.route('/api', paymentsRouter);
  app.route('/api', shipmentsRouter);
  app.route('/api', inventoryRouter);
  app.route('/api', webhooksRouter);

  // The admin panel (src/admin): its own session cookie and CSRF checks, outside the /api middleware.
  // Its form posts have the API's body limits (src/admin/body-limits.ts), checked before the CSRF check
  // parses them; its writes publish their outbox events like the API's (src/middleware/publish-events.ts).
  app.use('/admin/*', bodyLimit(panelBodyLimit), publishEvents());
  app.route('/admin', createAdminRouter(redispatch));
  app.route('/api', notificationsRouter);
  app.route('/api', pagesRouter);
  app.route('/api', menusRouter);
  app.route('/api', bannersRouter);
  app.route('/api', auditLogRouter);
  app.route('/api', reportsRouter);
  app.route('/api', importsRouter);

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key (`sk_...`) or, for user operations, a JWT.',
  });
  app.openAPIRegistry.registerComponent('securitySchemes', 'publishableKey', {
    type: 'http',
    scheme: 'bearer',
    description:
      "A publishable key (`pk_...`, `Authorization: Bearer pk_...`): safe in a web page, it can do what a shopper without an account can, only from the web origins it lists (403 from another), and is counted per shopper network. A signed-in shopper sends its own token instead.",
  });
  registerEventWebhooks(app);
  app.get(
    '/api/openapi.json',
    openApiDocument(app, (origin) => ({
      openapi: '3.1.0',
      info: {
        title: 'Store API',
        version: API_VERSION,
        description: OPENAPI_DESCRIPTION,
      },
      servers: [{ url: origin, description: 'This server' }],
      tags: OPENAPI_TAGS,
    })),
  );
  app.route('/docs', docsRouter);
  app.route('/', mediaFilesRouter);

  app.notFound((c) => errorResponse(c, new ApiError('NOT_FOUND', `No route for ${c.req.method} ${c.req.path}`)));
  // A stale cached key is not an error: src/middleware/rate-limit.ts answers the request again.
  app.onError((error, c) => (isStaleCredential(error) ? c.body(null, 503) : errorResponse(c, toApiError(error, c))));
  return app;
}

/** Parses the variables (src/config.ts), once per isolate: a ConfigError answers 500 naming the bad ones. */
const checkConfig: MiddlewareHandler<AppEnv> = (c, next) => {
  config(c.env);
  return next();
};

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
    // The operator's mistake, not a secret: say which variable so the first request after a deploy shows it.
    console.error(JSON.stringify({ level: 'error', requestId, message: error.message }));
    return new ApiError('INTERNAL_ERROR', `${error.message}. Quote request id ${requestId} when reporting it.`);
  }
  console.error(JSON.stringify({ level: 'error', requestId, method: c.req.method, path: c.req.path, error: String(error), stack: (error as Error)?.stack }));
  return new ApiError('INTERNAL_ERROR', `An unexpected error occurred. Quote request id ${requestId} when reporting it.`);
}

const OPENAPI_DESCRIPTION = `JSON REST API of an online store.

**Paths and versions.** Every path is under \`/api/\`; \`/api/v1/...\` serves the same routes. Every response carries \`API-Version: ${API_VERSION}\` and \`X-Request-Id\` (echoed when the request sent one).

**Envelopes.** Success: \`{ success: true, data, message }\`; lists add \`pagination: { page, limit, total, totalPages, hasNext, hasPrev }\`. Failure: \`{ success: false, error: { code, message, details } }\`, where \`details\` is always a list (possibly empty) of \`{ field?, code, message }\` (see the ErrorDetail schema). 201 for creations (with \`Location\`), 204 with no body for deletions.

**Errors.** INVALID_REQUEST 400 (malformed JSON; an empty body with \`Content-Type: application/json\` is not malformed but no body: \`{}\` where the body is optional, 422 naming the required fields where one is needed; bad or unknown query parameter, unknown sort or field name; 413 for a body over the limit, 415 for a body that is not JSON); VALIDATION_ERROR 422 (body fails its schema; every invalid field listed; unknown body fields are rejected); AUTHENTICATION_ERROR 401 (with \`WWW-Authenticate: Bearer\`); AUTHORIZATION_ERROR 403; NOT_FOUND 404 (also unknown routes); CONFLICT 409; RATE_LIMITED 429; INTERNAL_ERROR 500.

**Lists.** \`page\` (default 1), \`limit\` (default 20, at most 100), \`sort=field:direction,...\` (per-resource whitelist; ties end on \`id\`, in the direction of the last key, so an index serves the order), \`fields=id,name,variants(id,price)\` (also on single reads), and declared filters. Unknown query parameters are rejected with 400 so that a typo never returns an unfiltered list. Field and sort names may be camelCase or snake_case. ${FIELDS_SELECTION_NOTE} Operations that take \`fields\` carry \`${FIELDS_SELECTION_EXTENSION}: true\`. \`format=csv\` answers every matching item as CSV (at most CSV_EXPORT_MAX_ROWS, 10,000 by default, else 413), counting one request against the rate limit per page of 100 rows it reads (429 before any row when the remaining requests cannot cover them).

**Money.** Amounts are JSON numbers in the currency's major unit (\`19.99\`), at most 2 decimals; they are stored as integer minor units.

**Operation names.** Every operation has an \`operationId\` (camelCase, verb then noun: \`listProducts\`, \`cancelOrder\`) and, in \`x-sdk-group\` and \`x-sdk-method\`, the resource group and method the client libraries call it by (\`orders\` / \`cancel\`).

**Authentication.** \`Authorization: Bearer <credential>\`, where the credential is an API key (\`sk_...\`, created by an admin at \`POST /api/settings/api-keys\`, shown once) or a user JWT (from \`POST /api/auth/login\` or \`/api/auth/register\`; HS256, expires after \`JWT_TTL_SECONDS\`, one day by default; a password change retires earlier tokens). Catalogue reads are public; everything else needs a credential. A credential that is present but malformed, unknown, expired or revoked is 401 even on public routes. Permissions have the form \`resource:action\` and come from the key's or the user's role (\`admin\` holds \`*\`). Another principal's resource (another customer's profile, another vendor's product) answers 404, so ids cannot be probed. Granting: ${GRANT_RULE} An API key belongs to the user who minted it (or to the owner of the key that minted it) and is suspended (401) while that user is disabled or no longer covers it; a key of the \`vendor\` role acts for one vendor, like a vendor user. Failed sign-ins lock an account for 15 minutes: 5 from one client network (an IPv4 address or an IPv6 /64, as for rate limits) lock that network out, 20 from all networks lock the account (429 with \`Retry-After\`); each attempt is counted before its password is checked, so guesses sent at once cannot overtake the lock. In this document each operation's \`security\` says what it takes: \`[{ bearerAuth: [] }]\` needs a credential; \`{}\` next to it means the credential is optional (the operation works without one, and one that is sent must be valid), and \`{ publishableKey: [] }\` that a publishable key works there; \`[]\` means the operation reads no credential at all.

**Storefronts.** A web page calls the API from an origin the store allows (\`allowedOrigins\` in the settings, CORS) with a publishable key (\`pk_...\`, \`POST /api/settings/api-keys\` with \`type: "publishable"\` and its \`allowedOrigins\`): it reaches what a shopper without an account reaches (catalogue, search and content reads, carts and checkout, sign-up, sign-in, password reset), is refused (403) from other origins and wherever a credential is needed, and each shopper network (an IPv4 address, an IPv6 /64) is counted on its own with the authenticated limit. A server-rendered storefront uses a secret key holding \`storefront:buyer-ip\` and names the shopper in \`X-Buyer-IP\`: the request is counted on that shopper instead of the key (403 for a credential without the permission, 400 for a value that is not an address).

**Idempotency.** \`POST\` requests that create orders, checkouts, payments, refunds and shipments accept \`Idempotency-Key\`: a repeat with the same key and body within 24 hours returns the first response (with \`Idempotent-Replayed: true\`) without doing the work again; the same key with another body, or while the first request runs, is 409.

**Orders.** \`pending -> processing\` (paid in full) \`-> shipped\` (everything shipped) \`-> completed\` (everything delivered); \`pending\` or \`processing -> cancelled\` (stock and coupon use returned); \`processing\`, \`shipped\` or \`completed -> refunded\`. Any other move is 409. Stock, coupon limits, payments, refunds and shipped quantities are checked inside the same D1 batch as the write, so concurrent requests cannot oversell or overpay: the losers get 409 naming what ran out.

**Webhooks.** Admins register endpoints at \`/api/webhooks\` (the signing secret is shown once). Every event of the outbox (${EVENT_TYPES.map((type) => `\`${type}\``).join(', ')}) is POSTed as \`{ id, event, data, timestamp }\` (each kind's body and its \`data\` are under \`webhooks\` in this document, tag Events) with \`X-Store-Signature\` (lowercase hex HMAC-SHA256 of the raw body keyed with the secret), \`X-Store-Event\`, \`X-Store-Delivery\` (the same on every retry) and the Standard Webhooks headers. Any 2xx is success; anything else is retried with exponential backoff and jitter for more than 24 hours, then dead-lettered; an endpoint failing for days is disabled and the admins are told.

**Rate limits.** A sliding one-hour window per API key or signed-in user (1000 requests by default) and per client network without a valid credential (100 by default): an IPv4 address, or the /64 of an IPv6 address (all addresses of one /64 share one count; an IPv4-mapped address counts as its IPv4 address), read from \`CF-Connecting-IP\`; a request with a failing credential counts against its network. Counted responses carry \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\`, \`X-RateLimit-Reset\` (Unix seconds when the oldest counted request leaves the window), \`RateLimit-Policy\` and \`RateLimit\`; a 429 RATE_LIMITED adds \`Retry-After\` in seconds. \`/api\` (the index of links) and \`/api/health\` are never counted; this document is counted like any other read, and carries an \`ETag\` (\`If-None-Match\` with it is answered 304). If the limiter cannot be reached the request is served and the failure logged (fail open): a store that cannot sell because its limiter is down loses more than one that briefly over-serves. A busy client far from its limit is counted ten requests at a time and answered from that reservation for up to ten seconds, unused requests given back: the limit is never exceeded, and \`X-RateLimit-Remaining\` still counts down one per request. An anonymous GET from an address far from its limit is answered at once and counted a moment later (its rate-limit headers are then an estimate); within ten requests of the limit every request waits for its count, so at most four requests per server instance can pass beyond it.

**Caching of catalogue reads.** Anonymous GETs of products, categories and brands carry \`Cache-Control: public, max-age=60, stale-while-revalidate=300\`, \`Vary: Authorization, X-D1-Bookmark\` and a weak \`ETag\` that changes with any catalogue write (stock sold by orders included); \`If-None-Match\` with it is answered 304 after reading one row. Credentialed reads are \`private, no-store\`, with no ETag. The server also keeps the answers it rendered, per caller view and URL, for as long as the catalogue does not change, and serves them after reading the catalogue's version alone: \`X-Store-Cache: hit\` (kept bytes), \`miss\` (rendered now) or \`bypass\` (the request asked \`Cache-Control: no-cache\`, \`no-store\` or \`Pragma: no-cache\`, and was rendered now). A kept answer is never older than the catalogue it shows.

**Reading your own writes.** Reads may be served by a D1 read replica a moment behind. Every answer carries \`X-D1-Bookmark\`; sent back as the \`X-D1-Bookmark\` request header, it makes that request read data at least as fresh (a malformed one is 400). GETs without one read from the nearest replica; every other method runs on the primary.`;

/** The document's tags, one per group of operations, in the order the documentation shows them. */
const OPENAPI_TAGS = [
  { name: 'Health', description: 'The API index of links and the health check: public, and never rate limited.' },
  { name: 'Authentication', description: 'Sign-up, sign-in, the signed-in user, password changes and resets, and the one-time bootstrap of the first admin.' },
  { name: 'Products', description: 'The catalogue: products and their variants. Reads are public (active products only); writes need `products:write`.' },
  { name: 'Categories', description: 'The category tree. Reads are public; writes need `categories:write`.' },
  { name: 'Brands', description: 'Brands of products. Reads are public; writes need `brands:write`.' },
  { name: 'Carts', description: 'Guest and customer carts, priced on every answer, and checkout into an order.' },
  { name: 'Orders', description: 'Orders placed by checkout or by staff, their status and cancellation.' },
  { name: 'Payments', description: 'Payments of orders and refunds of payments.' },
  { name: 'Shipments', description: 'Shipments of orders, their tracking and status.' },
  { name: 'Inventory', description: 'Stock per variant and its history of adjustments.' },
  { name: 'Coupons', description: 'Discount codes and their rules.' },
  { name: 'Customers', description: 'Customer accounts and their addresses (also as `me` for the signed-in customer).' },
  { name: 'Users', description: 'Admin and vendor users (staff).' },
  { name: 'Vendors', description: 'Vendors of a marketplace store, whose users see only their own products and orders.' },
  { name: 'Roles', description: 'Built-in and custom roles and their `resource:action` permissions.' },
  { name: 'API keys', description: 'API keys (`sk_...`) for servers and scripts, shown once when created.' },
  { name: 'Settings', description: 'The store settings: name, contact email, default currency, shipping rates, weight unit and low-stock threshold.' },
  { name: 'Currencies', description: 'The currencies the store sells in and their exchange rates. Reads are public (enabled currencies only).' },
  { name: 'Tax rates', description: 'Tax rates per country and region.' },
  { name: 'Webhooks', description: 'Webhook endpoints, their signing secrets and their deliveries (see docs/webhooks.md for verifying signatures).' },
  { name: 'Events', description: 'What the store POSTs to webhook endpoints: one entry per event kind under `webhooks`, with its body (`<Kind>Event`, its data `<Kind>EventData`) and signature headers.' },
  { name: 'Notifications', description: 'Email and SMS notifications sent to customers and staff, and the templates they are made from.' },
  { name: 'Content', description: 'Storefront content: pages, navigation menus and banners. Reads are public (published and live items only).' },
  { name: 'Audit log', description: 'Who changed what: every write by staff, vendor users and API keys. Read only.' },
  { name: 'Reports', description: 'Sales, best sellers and new versus returning customers over time, from daily totals the store keeps. Needs `reports:read`.' },
];
