import { ApiError } from '../../lib/errors';
import { hasPermission } from '../../lib/access';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../../env';
import { guard } from '../context';
import { type Posted, str } from '../form-data';

/**
 * Shared by the Content area of the panel (pages, menus, banners): the guard of its read pages,
 * and date-time fields, which are entered in UTC as a datetime-local input gives them.
 */

/**
 * The reads are public in the API; in the panel the Content area is for those who edit it
 * (`content:write`, the permission of every content write route and of the navigation link).
 */
export const contentWriters: MiddlewareHandler<AppEnv> = guard({
  middleware: async (c, next) => {
    if (!hasPermission(c.var.principal, 'content:write')) throw ApiError.forbidden("This account lacks the 'content:write' permission");
    return next();
  },
});

const LOCAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/;

/**
 * A `datetime-local` value (`2026-12-01T09:30`), read as UTC, as the API's ISO instant; anything
 * else is passed on as typed so the API's schema names the field. Blank: undefined.
 */
export function utcInstant(form: Posted, name: string): string | undefined {
  const value = str(form, name);
  if (value === undefined || !LOCAL.test(value)) return value;
  return `${value.length === 16 ? `${value}:00` : value}Z`;
}

/** An ISO instant as a `datetime-local` value in UTC (minutes). */
export const utcLocal = (iso: string | null | undefined) => (iso ? iso.slice(0, 16) : '');

/** Sanitised HTML produced by the API's own renderer (src/lib/lazy-markdown.ts), shown as is. */
export function RenderedHtml({ html, label }: { html: string; label: string }) {
  return <div class="card rendered" role="region" aria-label={label} dangerouslySetInnerHTML={{ __html: html }} />;
}
