import type { Context } from 'hono';

/**
 * Sets a header of the answer, in place once the handler has answered: Hono's c.header() then
 * copies the whole Response for every header it sets (so that a fetched response's immutable
 * headers can change), several copies per request for a middleware that adds a few headers after
 * the handler. A response whose headers are immutable still goes through c.header().
 */
export function answerHeader(c: Context, name: string, value: string): void {
  if (!c.finalized) {
    c.header(name, value);
    return;
  }
  try {
    c.res.headers.set(name, value);
  } catch {
    c.header(name, value);
  }
}
