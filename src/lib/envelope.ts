import type { Context, TypedResponse } from 'hono';
import type { JSONParsed } from 'hono/utils/types';
import type { Selected } from './query/fields';

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

/**
 * The item an answer's data stands for: a `fields` selection (`project`) stands for the item it was
 * taken from, which the route's schema documents whole; anything else for itself.
 */
type Whole<D> = D extends { readonly [K in keyof Selected<unknown>]: infer T } ? T : D;

/**
 * An answer typed by its body, as `c.json()` types it: a handler's return is checked against its
 * route's declared responses (@hono/zod-openapi's RouteHandler), so data that differs from the
 * schema fails `tsc`.
 */
type Answer<B, S extends 200 | 201> = Response & TypedResponse<JSONParsed<B>, S, 'json'>;
/** One object type for an intersection, which JSONParsed reads as `{}`. */
type Flat<T> = { [K in keyof T]: T[K] };

/** 200 `{ success, data, message }`. */
export function ok<D>(c: Context, data: D, message = 'OK'): Answer<{ success: true; data: Whole<NoInfer<D>>; message: string }, 200> {
  return sendJson(c, { success: true, data, message }, 200);
}

/** 201 for creations, with `Location` pointing at the new resource. */
export function created<D>(c: Context, data: D, location: string, message = 'Created'): Answer<{ success: true; data: Whole<NoInfer<D>>; message: string }, 201> {
  c.header('Location', location);
  return sendJson(c, { success: true, data, message }, 201);
}

/** 200 list envelope with pagination, and what a list adds beside it (a product list's `facets`). */
export function list<D, B extends Record<string, unknown> = Record<never, never>>(
  c: Context,
  data: D[],
  page: Pagination,
  message = 'OK',
  beside: B = {} as B,
): Answer<Flat<{ success: true; data: Whole<NoInfer<D>>[]; message: string; pagination: Pagination } & NoInfer<B>>, 200> {
  return sendJson(c, { success: true, data, message, pagination: page, ...beside }, 200);
}

/**
 * c.json(), keeping the text as `renderedJson`: the catalogue cache keeps an answer's text from
 * there instead of reading the body back out of the response (src/middleware/catalogue-cache.ts).
 * Typed by the caller, which names the body it sent.
 */
function sendJson<S extends 200 | 201>(c: Context, body: Record<string, unknown>, status: S) {
  const text = JSON.stringify(body);
  const response = c.body(text, status, { 'Content-Type': 'application/json' });
  c.set('renderedJson', { response, text });
  // biome-ignore lint/suspicious/noExplicitAny: each caller states the body's type in its own return type.
  return response as any;
}

/** 204 with no body. */
export function noContent(c: Context) {
  return c.body(null, 204);
}
