/**
 * The request as it reached the app, after a middleware replaced `c.req.raw` (Hono's body limit
 * buffers a body sent without Content-Length into a new Request; an empty JSON body is dropped).
 * What is kept per request (src/middleware/rate-limit.ts: a request answered again is not counted
 * again) is looked up by this, or a chunked POST answered again would be counted twice.
 */
const arrivedAs = new WeakMap<Request, Request>();

export function noteReplacedRequest(original: Request, replacement: Request): void {
  if (replacement !== original) arrivedAs.set(replacement, arrivedRequest(original));
}

export function arrivedRequest(request: Request): Request {
  return arrivedAs.get(request) ?? request;
}
