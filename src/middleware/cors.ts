import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env';
import { matcherOf } from './edge-settings';
import { config } from '../config';

/** Request headers a storefront page may send (beyond the CORS-safelisted ones). */
export const CORS_ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'X-Cart-Token', 'Idempotency-Key', 'X-D1-Bookmark', 'If-None-Match', 'X-Request-Id', 'Store-Version'];
/** Response headers a storefront page may read. */
export const CORS_EXPOSED_HEADERS = [
  'X-D1-Bookmark',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'RateLimit-Policy',
  'RateLimit',
  'Retry-After',
  'X-Request-Id',
  'ETag',
  'Location',
  'X-Total-Count',
  'API-Version',
  'Idempotent-Replayed',
  'Store-Version',
  'X-Store-Cache',
  'Deprecation',
  'Sunset',
  'Content-Disposition',
];
const ALLOWED_METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
/** How long a browser may keep a preflight's answer (Chromium keeps at most two hours). */
export const CORS_MAX_AGE_SECONDS = 600;

/**
 * CORS for `/api/*`: a page on an allowed origin (the settings' `allowedOrigins` and the
 * environment's `CORS_ORIGINS`) may call the API. A preflight is answered here, before body limits,
 * credentials and the rate limit (so it is never charged), from the isolate's kept list
 * (src/middleware/edge-settings.ts): no D1 round trip once an isolate has read it. Every other answer
 * gets the grant of the origin asking, after everything else has run, so kept and cached answers
 * (which are stored before this adds anything) never carry the grant of the origin that filled
 * them. An origin not allowed gets no grant and an otherwise unchanged answer. Every answer says
 * `Vary: Origin`.
 */
export function cors(storeOrigins: (c: Context<AppEnv>) => Promise<readonly string[]>): MiddlewareHandler<AppEnv> {
  return async function cors(c, next) {
    const origin = c.req.header('Origin');
    const allowed = async () => {
      if (!origin) return false;
      return matcherOf([...(await storeOrigins(c)), ...config(c.env).CORS_ORIGINS])(origin);
    };

    if (c.req.method === 'OPTIONS' && c.req.header('Access-Control-Request-Method') !== undefined) {
      const headers = new Headers({ Vary: 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers' });
      if (await allowed()) {
        headers.set('Access-Control-Allow-Origin', origin!);
        headers.set('Access-Control-Allow-Methods', ALLOWED_METHODS);
        headers.set('Access-Control-Allow-Headers', CORS_ALLOWED_HEADERS.join(', '));
        headers.set('Access-Control-Max-Age', String(CORS_MAX_AGE_SECONDS));
      }
      return new Response(null, { status: 204, headers });
    }

    // Read (on a new isolate) while the request is answered; the grant is added at the end.
    const grant = allowed();
    await next();
    const granted = await grant;
    let response = c.res;
    try {
      response.headers.append('Vary', 'Origin');
    } catch {
      // A response with immutable headers (one fetched from elsewhere): answer with a copy.
      response = c.res = new Response(response.body, response);
      response.headers.append('Vary', 'Origin');
    }
    if (granted) {
      response.headers.set('Access-Control-Allow-Origin', origin!);
      response.headers.set('Access-Control-Expose-Headers', CORS_EXPOSED_HEADERS.join(', '));
    }
  };
}
