import { Hono } from 'hono';
import type { Context } from 'hono';
import type { AppEnv } from '../env';
import { ApiError } from '../lib/errors';
import { ADMIN_CSS, ADMIN_ICON, ADMIN_JS } from './assets';
import { Document } from './components/layout';
import { maybeSession, page, setSession } from './context';
import { CSRF_FIELD, sameOrigin, sameToken } from './csrf';
import { readSession } from './session';
import { accountRoutes } from './routes/account';
import { apiKeyRoutes } from './routes/api-keys';
import { giftCardRoutes } from './routes/gift-cards';
import { categoryRoutes } from './routes/categories';
import { brandRoutes } from './routes/brands';
import { vendorRoutes } from './routes/vendors';
import { inventoryRoutes } from './routes/inventory';
import { contentPageRoutes } from './routes/content-pages';
import { menuRoutes } from './routes/menus';
import { bannerRoutes } from './routes/banners';
import { notificationRoutes } from './routes/notifications';
import { userRoutes } from './routes/users';
import { roleRoutes } from './routes/roles';
import { auditLogRoutes } from './routes/audit-log';
import { cartsRoutes } from './routes/carts';
import { returnsRoutes } from './routes/returns';
import { shipmentsRoutes } from './routes/shipments';
import { couponRoutes } from './routes/coupons';
import { promotionRoutes } from './routes/promotions';
import { customerGroupRoutes } from './routes/customer-groups';
import { customerRoutes } from './routes/customers';
import { priceListRoutes } from './routes/price-lists';
import { dashboardRoutes } from './routes/dashboard';
import { orderRoutes } from './routes/orders';
import { productMediaRoutes } from './routes/product-media';
import { productRoutes } from './routes/products';
import { settingsRoutes } from './routes/settings';
import { shippingRoutes } from './routes/shipping';
import { taxClassRoutes } from './routes/tax-classes';
import { setupRoutes } from './routes/setup';
import { signInRoutes } from './routes/sign-in';
import { webhookRoutes } from './routes/webhooks';
import { exportRoutes } from './routes/export';
import { importRoutes } from './routes/product-import';
import { reportsRoutes } from './routes/reports';
import type { Redispatch } from '../middleware/rate-limit';

const asset = (body: string, type: string) => (c: Context<AppEnv>) => c.body(body, 200, { 'Content-Type': type, 'Cache-Control': 'public, max-age=300' });

/**
 * The admin panel at /admin: server-rendered pages (hono/jsx) over the same services and guards as
 * the API. Mounted outside the /api middleware: it authenticates with its own session cookie, and
 * every POST must carry the session's CSRF token and come from this origin.
 */
export function createAdminRouter(redispatch: Redispatch) {
  const admin = new Hono<AppEnv>();
  admin.use('*', async (c, next) => {
    await next();
    c.header('X-Frame-Options', 'DENY');
    c.header('Referrer-Policy', 'same-origin');
    c.header('X-Content-Type-Options', 'nosniff');
    if (!c.res.headers.has('Cache-Control')) c.header('Cache-Control', 'no-store');
    c.header(
      'Content-Security-Policy',
      "default-src 'self'; img-src 'self' https: data:; style-src 'self'; script-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
  });
  admin.get('/assets/admin.css', asset(ADMIN_CSS, 'text/css; charset=utf-8'));
  admin.get('/assets/admin.js', asset(ADMIN_JS, 'text/javascript; charset=utf-8'));
  admin.get('/assets/icon.svg', asset(ADMIN_ICON, 'image/svg+xml'));
  admin.route('/', signInRoutes);
  admin.route('/', setupRoutes);

  // Everything below needs a session; a page asked for without one goes to sign-in and comes back.
  admin.use('*', async (c, next) => {
    const session = await readSession(c);
    if (!session) {
      if (c.req.method !== 'GET') return c.redirect('/admin/sign-in', 303);
      const url = new URL(c.req.url);
      return c.redirect(`/admin/sign-in?next=${encodeURIComponent(url.pathname + url.search)}`, 303);
    }
    setSession(c, session);
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      const body = await c.req.parseBody();
      if (!sameOrigin(c) || !sameToken(body[CSRF_FIELD], session.csrfToken)) {
        throw new ApiError('AUTHORIZATION_ERROR', 'The form could not be accepted (it came from another site, or expired). Go back, reload the page and try again.');
      }
    }
    return next();
  });

  admin.route('/', dashboardRoutes);
  admin.route('/account', accountRoutes);
  admin.route('/products/import', importRoutes);
  admin.route('/products', productMediaRoutes);
  admin.route('/products', productRoutes);
  admin.route('/orders', orderRoutes);
  admin.route('/customers', customerRoutes);
  admin.route('/customer-groups', customerGroupRoutes);
  admin.route('/price-lists', priceListRoutes);
  admin.route('/coupons', couponRoutes);
  admin.route('/promotions', promotionRoutes);
  admin.route('/webhooks', webhookRoutes);
  admin.route('/categories', categoryRoutes);
  admin.route('/brands', brandRoutes);
  admin.route('/vendors', vendorRoutes);
  admin.route('/inventory', inventoryRoutes);
  admin.route('/carts', cartsRoutes);
  admin.route('/shipments', shipmentsRoutes);
  admin.route('/returns', returnsRoutes);
  admin.route('/gift-cards', giftCardRoutes);
  admin.route('/content/pages', contentPageRoutes);
  admin.route('/content/menus', menuRoutes);
  admin.route('/content/banners', bannerRoutes);
  admin.route('/notifications', notificationRoutes);
  admin.route('/users', userRoutes);
  admin.route('/roles', roleRoutes);
  admin.route('/audit-log', auditLogRoutes);
  admin.route('/settings/api-keys', apiKeyRoutes);
  admin.route('/settings/shipping', shippingRoutes);
  admin.route('/settings/tax-classes', taxClassRoutes);
  admin.route('/settings', settingsRoutes);
  admin.route('/export', exportRoutes(redispatch));
  admin.route('/reports', reportsRoutes);
  admin.all('*', () => {
    throw new ApiError('NOT_FOUND', 'There is no such page in the admin panel.');
  });
  admin.onError((error, c) => errorPage(c, error));
  return admin;
}

const TITLES: Partial<Record<ApiError['code'], string>> = {
  NOT_FOUND: 'Not found',
  AUTHORIZATION_ERROR: 'Not allowed',
  AUTHENTICATION_ERROR: 'Signed out',
  INVALID_REQUEST: 'Bad request',
  CONFLICT: 'Not possible',
  VALIDATION_ERROR: 'Invalid input',
};

/** An error page in the panel's frame: the API's status and message, never a stack. */
function errorPage(c: Context<AppEnv>, error: Error) {
  let known = error instanceof ApiError ? error : undefined;
  if (!known) {
    console.error(JSON.stringify({ level: 'error', requestId: c.get('requestId'), path: c.req.path, error: String(error), stack: error.stack }));
    known = new ApiError('INTERNAL_ERROR', `Something went wrong. Quote request id ${c.get('requestId')} when reporting it.`);
  }
  const title = TITLES[known.code] ?? 'Error';
  const body = (
    <div class="card">
      <p role="alert">{known.message}</p>
      <p>
        <a href="/admin">Back to the dashboard</a>
      </p>
    </div>
  );
  if (maybeSession(c)) return page(c, { title, active: '', status: known.status }, body);
  return c.html(
    <Document title={title}>
      <main id="main">
        <h1>{title}</h1>
        {body}
      </main>
    </Document>,
    known.status as 200,
  );
}
