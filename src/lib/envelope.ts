import type { Context } from 'hono';

export interface Pagination {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
  hasNext: boolean;
  hasPrev: boolean;
}

export function pagination(page: number, limit: number, total: number): Pagination {
  const totalPages = Math.ceil(total / limit);
  return { page, limit, total, totalPages, hasNext: page < totalPages, hasPrev: page > 1 };
}

/** 200 `{ success, data, message }`. */
// Bodies are typed `any` on purpose: a `fields` selection returns part of the declared schema, so
// the OpenAPI response schemas document the full shape while handlers return what was selected.
// biome-ignore lint/suspicious/noExplicitAny: see above.
type Body = any;

export function ok(c: Context, data: unknown, message = 'OK') {
  return sendJson(c, { success: true, data, message }, 200);
}

/** 201 for creations, with `Location` pointing at the new resource. */
export function created(c: Context, data: unknown, location: string, message = 'Created') {
  c.header('Location', location);
  return sendJson(c, { success: true, data, message }, 201);
}

/** 200 list envelope with pagination, and what a list adds beside it (a product list's `facets`). */
export function list(c: Context, data: unknown[], page: Pagination, message = 'OK', beside: Record<string, unknown> = {}) {
  return sendJson(c, { success: true, data, message, pagination: page, ...beside }, 200);
}

/**
 * c.json(), keeping the text as `renderedJson`: the catalogue cache keeps an answer's text from
 * there instead of reading the body back out of the response (src/middleware/catalogue-cache.ts).
 */
function sendJson<S extends 200 | 201>(c: Context, body: Record<string, unknown>, status: S) {
  const text = JSON.stringify(body);
  const response = c.body(text, status, { 'Content-Type': 'application/json' });
  c.set('renderedJson', { response, text });
  return response as unknown as ReturnType<typeof c.json<Body, S>>;
}

/** 204 with no body. */
export function noContent(c: Context) {
  return c.body(null, 204);
}
