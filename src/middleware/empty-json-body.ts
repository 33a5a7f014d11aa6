import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../env';
import { noteReplacedRequest } from '../lib/arrived-request';

const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i;
const WITHOUT_BODY = new Set(['GET', 'HEAD']);

/**
 * A JSON Content-Type with an empty (or blank) body is read as no body at all, not as malformed
 * JSON: a route whose body is optional or absent answers as if the header were not sent, and one
 * that needs a body validates `{}` (422 naming the required fields). Clients and HTTP libraries
 * often send the header on every POST, bodies or not.
 */
export function emptyJsonBody() {
  return createMiddleware<AppEnv>(async function emptyJsonBody(c, next) {
    const contentType = c.req.header('Content-Type');
    if (WITHOUT_BODY.has(c.req.method) || !contentType || !JSON_MEDIA_TYPE.test(contentType)) return next();
    if ((await c.req.text()).trim() === '') {
      const headers = new Headers(c.req.raw.headers);
      headers.delete('Content-Type');
      headers.delete('Content-Length');
      const arrived = c.req.raw;
      c.req.raw = new Request(arrived.url, { method: arrived.method, headers, signal: arrived.signal });
      noteReplacedRequest(arrived, c.req.raw);
      c.req.bodyCache = {};
    }
    return next();
  });
}
