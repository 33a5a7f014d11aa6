import type { z } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env';
import { cellValue, csvColumns, listItemSchema } from '../lib/csv-columns';
import { csvLine } from '../lib/csv';
import { ApiError } from '../lib/errors';
import { type FieldTree, fieldTreeFromSchema, MAX_LIMIT } from '../lib/query';
import { FieldSyntaxError } from '../lib/query/fields';
import { versionAliasPath } from './api-version';
import { BOOKMARK_HEADER } from './d1-session';
import { countedAlready, type Redispatch } from './rate-limit';

/** A list operation of the API: its path as a pattern, and what `fields=` may select in its items. */
interface ListRoute {
  pattern: RegExp;
  resource: string;
  selectable: FieldTree;
}

/** What the OpenAPI registry keeps of a route (src/app.ts's app.openAPIRegistry.definitions), as read here. */
type Definition = { type: string; route?: { method: string; path: string; responses?: Record<string, unknown> } };
type JsonResponse = { content?: Record<string, { schema?: unknown }> } | undefined;

/**
 * CSV export of every list endpoint (docs/api.md, Exporting CSV): `?format=csv`, or a request
 * preferring `Accept: text/csv`, answers with every row matching the filters, not one page, as
 * CSV streamed a page at a time. The pages are the endpoint's own JSON answers, asked for through
 * the whole app again (the same credential, reach, filters, sort and `fields`), so each list's
 * rules hold in its CSV with no code of its own; the export is counted once against the rate
 * limit, its pages not at all. Columns come from `fields=` or else every field of the item
 * (src/lib/csv-columns.ts); rows already written are not written again if the list shifts while
 * it is read.
 */
export function csvExport(definitions: () => Definition[], redispatch: Redispatch): MiddlewareHandler<AppEnv> {
  let routes: ListRoute[] | undefined;
  return async (c, next) => {
    if (c.req.method !== 'GET') return next();
    const format = c.req.query('format');
    if (format !== 'csv' && (format !== undefined || !prefersCsv(c.req.header('Accept')))) return next();
    routes ??= listRoutes(definitions());
    const path = versionAliasPath(c.req.raw);
    const route = routes.find((r) => r.pattern.test(path));
    if (!route) {
      if (format !== 'csv') return next();
      throw new ApiError('INVALID_REQUEST', 'Only list endpoints answer in CSV', { status: 406, details: { field: 'format', issue: 'this endpoint has no CSV form' } });
    }
    let columns: string[];
    try {
      columns = csvColumns(route.selectable, c.req.query('fields'));
    } catch (error) {
      if (error instanceof FieldSyntaxError) throw ApiError.badParameter('fields', error.message);
      throw error;
    }
    return exportPages(c, route, columns, redispatch);
  };
}

/** `Accept: text/csv` (alone or ahead of JSON); a browser's `*\/*` stays JSON. */
function prefersCsv(accept: string | undefined): boolean {
  if (!accept) return false;
  const types = accept.split(',').map((part) => part.split(';')[0]!.trim().toLowerCase());
  const csv = types.indexOf('text/csv');
  const json = types.indexOf('application/json');
  return csv >= 0 && (json < 0 || csv < json);
}

function listRoutes(definitions: Definition[]): ListRoute[] {
  const found: ListRoute[] = [];
  for (const { type, route } of definitions) {
    if (type !== 'route' || route?.method !== 'get') continue;
    const item = listItemSchema((route.responses?.['200'] as JsonResponse)?.content?.['application/json']?.schema as z.ZodType | undefined);
    if (!item) continue;
    const source = route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
    const resource = route.path.split('/').filter((part) => part && !part.startsWith('{') && part !== 'api').join('-');
    found.push({ pattern: new RegExp(`^${source}$`), resource, selectable: fieldTreeFromSchema(item) });
  }
  return found;
}

interface Page {
  data: Record<string, unknown>[];
  pagination: { total: number };
}

async function exportPages(c: Context<AppEnv>, route: ListRoute, columns: string[], redispatch: Redispatch): Promise<Response> {
  const url = new URL(c.req.url);
  url.searchParams.delete('format');
  url.searchParams.set('limit', String(MAX_LIMIT));
  const headers = new Headers(c.req.raw.headers);
  headers.set('Accept', 'application/json');
  for (const name of ['If-None-Match', 'If-Modified-Since', 'Range']) headers.delete(name);

  const fetchPage = async (page: number) => {
    url.searchParams.set('page', String(page));
    const request = countedAlready(new Request(url, { headers }));
    const response = await redispatch(request, c);
    const bookmark = response.headers.get(BOOKMARK_HEADER);
    if (bookmark) headers.set(BOOKMARK_HEADER, bookmark); // later pages read at least what the first saw
    return response;
  };

  const first = await fetchPage(1);
  // A refusal (401, 403, a bad filter) is the endpoint's own JSON error.
  if (first.status !== 200) return first;
  const firstPage = (await first.json()) as Page;

  const encoder = new TextEncoder();
  const written = new Set<unknown>();
  const rowsOf = (page: Page) => {
    let text = '';
    for (const item of page.data) {
      if (item.id !== undefined) {
        if (written.has(item.id)) continue;
        written.add(item.id);
      }
      text += csvLine(columns.map((column) => cellValue(item, column)));
    }
    return encoder.encode(text);
  };
  let page = 1;
  let last = firstPage.data.length < MAX_LIMIT;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(csvLine(columns)));
      controller.enqueue(rowsOf(firstPage));
      if (last) controller.close();
    },
    async pull(controller) {
      page += 1;
      const response = await fetchPage(page);
      if (response.status !== 200) {
        // Too late for a status: the download ends short and the client sees a broken transfer.
        controller.error(new Error(`CSV export of ${url.pathname} stopped at page ${page}: ${response.status}`));
        return;
      }
      const next = (await response.json()) as Page;
      controller.enqueue(rowsOf(next));
      last = next.data.length < MAX_LIMIT;
      if (last) controller.close();
    },
  });
  const day = new Date().toISOString().slice(0, 10);
  return c.body(body, 200, {
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="${route.resource}-${day}.csv"`,
    'X-Total-Count': String(firstPage.pagination.total),
    'Cache-Control': 'no-store',
    Vary: 'Accept',
  });
}
