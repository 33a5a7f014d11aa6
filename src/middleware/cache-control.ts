import { createMiddleware } from 'hono/factory';
import { answerHeader } from '../lib/answer-header';

/** What no cache may keep: an answer meant for one caller, or one a shared cache must not repeat to another. */
export const PRIVATE_CACHE_CONTROL = 'private, no-store';

/**
 * Every `/api` answer that says nothing of its own about caching is `Cache-Control: private,
 * no-store`: a guest cart read with only its X-Cart-Token, a checkout, an order, a customer's
 * profile, a sign-in's token, and every error (a 401, 403 or 404 kept by a shared cache would be
 * served to the next caller of that URL). Browsers and CDNs may otherwise keep what carries no
 * directive, and `Vary: Origin` alone does not tell callers apart.
 *
 * An answer that set its own Cache-Control keeps it: the public catalogue reads
 * (src/middleware/catalogue-cache.ts, which also marks a credentialed catalogue read private),
 * `/api/openapi.json` (`no-cache` with its ETag), a CSV export (`no-store`). So this runs outermost
 * of the `/api` middleware and decides last, once the answer, an error's included, is made.
 */
export function privateByDefault() {
  return createMiddleware(async function privateByDefault(c, next) {
    await next();
    if (!c.res.headers.has('Cache-Control')) answerHeader(c, 'Cache-Control', PRIVATE_CACHE_CONTROL);
  });
}
