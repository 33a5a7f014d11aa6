import type { Hono } from 'hono';
import type { AppEnv } from './env';
import type { Redispatch } from './middleware/rate-limit';

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
 * Every router, in the order the app matches them. A request is answered by an app of the mounts
 * that claim its key (`mountKey`): routes of other mounts cannot match its path, so it matches what
 * an app of every mount would (test/http/mounts.test.ts checks each mount's keys against its routes).
 */
export const MOUNTS: readonly Mount[] = [
  { at: '/api', keys: ['api/'], load: async () => (await import('./modules/api-index')).apiIndexRouter },
  { at: '/api', keys: ['api/health'], load: async () => (await import('./modules/health')).healthRouter },
  { at: '/api', keys: ['api/products'], load: async () => (await import('./modules/products')).productsRouter },
  { at: '/api', keys: ['api/products'], load: async () => (await import('./modules/media')).mediaRouter },
  { at: '/api', keys: ['api/categories'], load: async () => (await import('./modules/categories')).categoriesRouter },
  { at: '/api', keys: ['api/brands'], load: async () => (await import('./modules/brands')).brandsRouter },
  { at: '/api', keys: ['api/auth'], load: async () => (await import('./modules/auth')).authRouter },
  { at: '/api', keys: ['api/customers'], load: async () => (await import('./modules/customers')).customersRouter },
  { at: '/api', keys: ['api/customer-groups'], load: async () => (await import('./modules/customer-groups')).customerGroupsRouter },
  { at: '/api', keys: ['api/users'], load: async () => (await import('./modules/users')).usersRouter },
  { at: '/api', keys: ['api/vendors'], load: async () => (await import('./modules/vendors')).vendorsRouter },
  { at: '/api', keys: ['api/roles'], load: async () => (await import('./modules/roles')).rolesRouter },
  { at: '/api', keys: ['api/settings'], load: async () => (await import('./modules/api-keys')).apiKeysRouter },
  { at: '/api', keys: ['api/settings'], load: async () => (await import('./modules/settings')).settingsRouter },
  { at: '/api', keys: ['api/settings'], load: async () => (await import('./modules/shipping')).shippingRouter },
  { at: '/api', keys: ['api/coupons'], load: async () => (await import('./modules/coupons')).couponsRouter },
  { at: '/api', keys: ['api/price-lists'], load: async () => (await import('./modules/price-lists')).priceListsRouter },
  { at: '/api', keys: ['api/promotions'], load: async () => (await import('./modules/promotions')).promotionsRouter },
  { at: '/api', keys: ['api/gift-cards'], load: async () => (await import('./modules/gift-cards')).giftCardsRouter },
  { at: '/api', keys: ['api/carts'], load: async () => (await import('./modules/carts')).cartsRouter },
  { at: '/api', keys: ['api/orders'], load: async () => (await import('./modules/orders')).ordersRouter },
  { at: '/api', keys: ['api/orders', 'api/payments'], load: async () => (await import('./modules/payments')).paymentsRouter },
  { at: '/api', keys: ['api/orders', 'api/shipments'], load: async () => (await import('./modules/shipments')).shipmentsRouter },
  { at: '/api', keys: ['api/orders', 'api/returns'], load: async () => (await import('./modules/returns')).returnsRouter },
  { at: '/api', keys: ['api/inventory'], load: async () => (await import('./modules/inventory')).inventoryRouter },
  { at: '/api', keys: ['api/webhooks'], load: async () => (await import('./modules/webhooks')).webhooksRouter },
  { at: '/admin', keys: ['admin'], load: async (redispatch) => (await import('./admin')).createAdminRouter(redispatch) },
  { at: '/api', keys: ['api/notifications'], load: async () => (await import('./modules/notifications')).notificationsRouter },
  { at: '/api', keys: ['api/pages'], load: async () => (await import('./modules/pages')).pagesRouter },
  { at: '/api', keys: ['api/menus'], load: async () => (await import('./modules/menus')).menusRouter },
  { at: '/api', keys: ['api/banners'], load: async () => (await import('./modules/banners')).bannersRouter },
  { at: '/api', keys: ['api/audit-log'], load: async () => (await import('./modules/audit-log')).auditLogRouter },
  { at: '/api', keys: ['api/events'], load: async () => (await import('./modules/events')).eventsRouter },
  { at: '/api', keys: ['api/reports'], load: async () => (await import('./modules/reports')).reportsRouter },
  { at: '/api', keys: ['api/imports', 'api/products'], load: async () => (await import('./modules/imports')).importsRouter },
  { at: '/docs', keys: ['docs'], load: async () => (await import('./docs')).docsRouter },
  { at: '/', keys: ['media'], load: async () => (await import('./modules/media')).mediaFilesRouter },
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
