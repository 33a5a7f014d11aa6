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
import { FIELDS_SELECTION_EXTENSION } from './lib/query';
import { ApiError, detailOf } from './lib/errors';
import { validationHook } from './lib/validation';
import { API_VERSION, apiVersion, versionAliasPath } from './middleware/api-version';
import { bodyLimit } from './middleware/body-limit';
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
  // d1Metrics: X-D1-Rows-Read and X-D1-Round-Trips in development (src/middleware/d1-metrics.ts); it
  // sets its rider before services() builds the request's database (src/d1/request-db.ts fixes the
  // layers' order, whatever the middlewares' order), so the database is built once with it.
  app.use('*', requestId({ headerName: 'X-Request-Id' }), checkConfig, serverTiming, apiVersion(), d1Metrics(), services());
  // Each route's policy (src/lib/route-policy.ts, declared in its routes file) decides what the middleware below does with it.
  const counted = (c: Context<AppEnv>) => routePolicy(c).counted;
  const redispatch: Redispatch = async (request, c) => app.fetch(request, c.env, c.executionCtx);
  // CORS first: a preflight is answered before anything counts or reads it (src/middleware/cors.ts).
  app.use(
    '/api/*',
    cors((c) => readAllowedOrigins(c.var.db)),
  );
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
      'A publishable key (`pk_...`, `Authorization: Bearer pk_...`): safe in a web page, it can do what a shopper without an account can, only from the web origins it lists (403 from another), and is counted per shopper network. A signed-in shopper sends its own token instead.',
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

/** What the API is and what every operation shares; the whole contract is docs/api.md, never repeated here. */
const OPENAPI_DESCRIPTION = `The JSON REST API of an online store: catalogue, carts and checkout, orders, payments, shipments, customers, content and webhooks. Every path is under \`/api/\` (\`/api/v1/\` is the same API).

- **Envelope.** \`{ success: true, data, message }\`; a list adds \`pagination\`. A failure is \`{ success: false, error: { code, message, details } }\` with a \`code\` of the Error schema and \`details\` always a list of ErrorDetail (\`{ field?, code, message }\`). Amounts are numbers in the currency's major unit (\`19.99\`).
- **Lists.** \`page\`, \`limit\` (20 by default, at most 100), \`sort=field:direction,...\`, \`fields=\` (operations that take it carry \`${FIELDS_SELECTION_EXTENSION}: true\`), the list's own filters, and \`format=csv\` for every match; an unknown parameter is 400.
- **Authentication.** \`Authorization: Bearer\` with an API key (\`sk_...\`), a user token (JWT) or, in a web page, a publishable key (\`pk_...\`). Each operation's \`security\` says what it takes: \`[{ bearerAuth: [] }]\` needs a credential; \`{}\` next to it means the credential is optional, and \`{ publishableKey: [] }\` that a publishable key works there; \`[]\` means it reads none.
- **Route policy.** Every operation carries \`x-rate-limited\` (counted against the hourly limit; 429 is listed where it is), \`x-cache\` (\`catalogue\`: kept by catalogue version, with an ETag), \`x-max-body-bytes\` (this server's limit) and, where it takes an \`Idempotency-Key\`, \`x-idempotency\` (\`scope\`: the headers a replay must repeat).

Errors, permissions, rate limits, caching, idempotency, orders and the rest of the contract: see docs/api.md in the repository; events and their signatures: docs/webhooks.md.`;

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
  {
    name: 'Events',
    description:
      'What the store POSTs to webhook endpoints: one entry per event kind under `webhooks`, with its body (`<Kind>Event`, its data `<Kind>EventData`) and signature headers.',
  },
  { name: 'Notifications', description: 'Email and SMS notifications sent to customers and staff, and the templates they are made from.' },
  { name: 'Content', description: 'Storefront content: pages, navigation menus and banners. Reads are public (published and live items only).' },
  { name: 'Audit log', description: 'Who changed what: every write by staff, vendor users and API keys. Read only.' },
  { name: 'Reports', description: 'Sales, best sellers and new versus returning customers over time, from daily totals the store keeps. Needs `reports:read`.' },
];
