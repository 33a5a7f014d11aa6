import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { users } from '../../db/schema';
import type { AppEnv } from '../../env';
import { ApiError, type ErrorCode } from '../../lib/errors';
import { signUserToken } from '../../lib/jwt';
import type { Redispatch } from '../../middleware/rate-limit';
import { sessionOf } from '../context';
import { config } from '../../config';

/** An API list path (`orders`, `orders/ord_…/payments`): plain segments only, so `..` cannot lead elsewhere. */
const LIST_PATH = /^[a-z][a-z-]*(\/[A-Za-z0-9_-]+)*$/;

/** Long enough to start the download; the export streams on under the request it started. */
const EXPORT_TOKEN_SECONDS = 60;

/**
 * `/admin/export/<list>?<filters>`: the panel's "Export CSV" (a list's filter form submitted here)
 * is the API's CSV export of `/api/<list>` (src/middleware/csv-export.ts), asked as the signed-in
 * user with a token that lasts a minute, so it shows exactly what that user may list, filtered as
 * the page is, and is counted as one API request of theirs. Blank form fields are dropped.
 */
export function exportRoutes(redispatch: Redispatch) {
  const routes = new Hono<AppEnv>();
  routes.get('/:list{.+}', async (c) => {
    if (!LIST_PATH.test(c.req.param('list'))) throw ApiError.notFound('List', c.req.param('list'));
    const session = sessionOf(c);
    const user = await c.var.db.query.users.findFirst({ columns: { id: true, tokenVersion: true }, where: eq(users.id, session.user.id) });
    const secret = config(c.env).JWT_SECRET;
    if (!user || !secret) throw ApiError.unauthenticated('Sign in again to export');
    const url = new URL(c.req.url);
    const target = new URL(`/api/${c.req.param('list')}`, url.origin);
    for (const [name, value] of url.searchParams) if (value.trim() !== '' && name !== 'page' && name !== 'limit') target.searchParams.set(name, value.trim());
    target.searchParams.set('format', 'csv');
    const { token } = await signUserToken(user.id, user.tokenVersion, secret, EXPORT_TOKEN_SECONDS);
    const headers = new Headers({ Authorization: `Bearer ${token}` });
    const ip = c.req.header('CF-Connecting-IP');
    if (ip) headers.set('CF-Connecting-IP', ip);
    const answer = await redispatch(new Request(target, { headers }), c);
    if (answer.ok) return answer;
    const refused = (await answer.json().catch(() => null)) as { error?: { code?: ErrorCode; message?: string } } | null;
    throw new ApiError(refused?.error?.code ?? 'INTERNAL_ERROR', refused?.error?.message ?? 'The export failed', { status: answer.status as never });
  });
  return routes;
}
