import type { z } from '@hono/zod-openapi';
import type { Context, MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env';
import { config } from '../config';
import { cellValue, csvColumns, listItemSchema } from '../lib/csv-columns';
import { csvLine } from '../lib/csv';
import { ApiError, detailOf } from '../lib/errors';
import { FieldSyntaxError, type FieldTree, fieldTreeFromSchema, parseFields } from '../lib/query/fields';
import { continueAfter, type Cursor, keysetFields } from '../lib/query/keyset';
import { type AnyFilters, listConfigOf, type ListQueryConfig, MAX_LIMIT } from '../lib/query/list-query';
import { versionAliasPath } from './api-version';
import { BOOKMARK_HEADER } from '../d1/session';
import { countedAlready, type Redispatch, requireAllowance } from './rate-limit';

/** A list operation of the API: its path as a pattern, what `fields=` may select in its items, and its list config. */
interface ListRoute {
  pattern: RegExp;
  resource: string;
  selectable: FieldTree;
  config?: ListQueryConfig<AnyFilters>;
}

/** What the OpenAPI registry keeps of a route (src/app.ts's app.openAPIRegistry.definitions), as read here. */
type Definition = { type: string; route?: { method: string; path: string; request?: { query?: unknown }; responses?: Record<string, unknown> } };
type JsonResponse = { content?: Record<string, { schema?: unknown }> } | undefined;

/**
 * CSV export of every list endpoint (docs/api.md, Exporting CSV): `?format=csv`, or a request
 * preferring `Accept: text/csv`, answers with every row matching the filters, not one page, as
 * CSV streamed a page at a time. The pages are the endpoint's own JSON answers, asked for through
 * the whole app again (the same credential, reach, filters, sort and `fields`), so each list's
 * rules hold in its CSV with no code of its own. Each page is one request on the caller's rate
 * limit (the export itself pays for the first), and kept answers serve them (the client's
 * Cache-Control is not passed on). The first page's total decides before anything is streamed:
 * more than CSV_EXPORT_MAX_ROWS rows is 413, more pages than the caller has requests left is 429.
 * Each next page starts after the last item of the one before (src/lib/query/keyset.ts) where the
 * sort allows, else by offset. Columns come from `fields=` or else every field of the item
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
      throw new ApiError('INVALID_REQUEST', 'Only list endpoints answer in CSV', {
        status: 406,
        details: [detailOf({ field: 'format', problem: 'cannot be csv on this endpoint: it has no CSV form' })],
      });
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
    const resource = route.path
      .split('/')
      .filter((part) => part && !part.startsWith('{') && part !== 'api')
      .join('-');
    found.push({ pattern: new RegExp(`^${source}$`), resource, selectable: fieldTreeFromSchema(item), config: listConfigOf(route.request?.query) });
  }
  return found;
}

interface Page {
  data: Record<string, unknown>[];
  pagination: { total: number };
}

/** The export's headers for its pages: the client's, less what would ask for a fresh render or a part of one. */
function pageHeaders(client: Headers): Headers {
  const headers = new Headers(client);
  headers.set('Accept', 'application/json');
  for (const name of ['If-None-Match', 'If-Modified-Since', 'Range', 'Cache-Control', 'Pragma']) headers.delete(name);
  return headers;
}

/**
 * The fields each page's last item must show for the next page to start after it (keyset), added
 * to the pages' `fields=` when the client's selection leaves them out; undefined when the sort
 * cannot be walked so (the pages are read by offset).
 */
function keysetFieldsFor(route: ListRoute, url: URL): string[] | undefined {
  const needed = route.config && keysetFields(route.config, url.searchParams.get('sort') ?? undefined);
  if (!needed || needed.some((field) => route.selectable[field] !== true)) return undefined;
  const selection = url.searchParams.get('fields');
  if (selection !== null) {
    const selected = parseFields(selection, route.selectable);
    const missing = needed.filter((field) => selected[field] === undefined);
    if (missing.length) url.searchParams.set('fields', [selection, ...missing].join(','));
  }
  return needed;
}

/** Where the next page starts: the values of `fields` on the page's last item, or undefined (by offset) if one is not text. */
function cursorOf(item: Record<string, unknown> | undefined, fields: string[] | undefined): Cursor | undefined {
  if (!item || !fields) return undefined;
  const cursor: Cursor = {};
  for (const field of fields) {
    const value = item[field];
    if (typeof value !== 'string') return undefined;
    cursor[field] = value;
  }
  return cursor;
}

async function exportPages(c: Context<AppEnv>, route: ListRoute, columns: string[], redispatch: Redispatch): Promise<Response> {
  const url = new URL(c.req.url);
  url.searchParams.delete('format');
  url.searchParams.set('limit', String(MAX_LIMIT));
  const cursorFields = keysetFieldsFor(route, url);
  const headers = pageHeaders(c.req.raw.headers);

  const fetchPage = async (page: number, after: Cursor | undefined) => {
    url.searchParams.set('page', String(page));
    const request = new Request(url, { headers });
    // The export request paid for its first page; every further page is counted as a request of the caller's.
    if (page === 1) countedAlready(request);
    if (after) continueAfter(request, after);
    const response = await redispatch(request, c);
    const bookmark = response.headers.get(BOOKMARK_HEADER);
    if (bookmark) headers.set(BOOKMARK_HEADER, bookmark); // later pages read at least what the first saw
    return response;
  };

  const first = await fetchPage(1, undefined);
  // A refusal (401, 403, a bad filter) is the endpoint's own JSON error.
  if (first.status !== 200) return first;
  const firstPage = (await first.json()) as Page;
  const total = firstPage.pagination.total;
  const maxRows = config(c.env).CSV_EXPORT_MAX_ROWS;
  if (total > maxRows) {
    throw new ApiError('INVALID_REQUEST', `${total} rows match this export and an export holds at most ${maxRows}: narrow the filters`, {
      status: 413,
      details: [detailOf({ field: 'format', problem: `${total} rows match; at most ${maxRows} per export`, code: 'too_big' })],
    });
  }
  const pages = Math.max(1, Math.ceil(total / MAX_LIMIT));
  requireAllowance(c, pages - 1, `This export of ${total} rows (${pages} pages of ${MAX_LIMIT}, one request each)`);

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
  let previous = firstPage;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(csvLine(columns)));
      controller.enqueue(rowsOf(firstPage));
      if (firstPage.data.length < MAX_LIMIT) controller.close();
    },
    async pull(controller) {
      page += 1;
      const response = await fetchPage(page, cursorOf(previous.data[previous.data.length - 1], cursorFields));
      if (response.status !== 200) {
        // Too late for a status (a 429 if the caller's other requests used up the limit meanwhile):
        // the download ends short as a failed transfer, never as a file that looks complete.
        controller.error(new Error(`CSV export of ${url.pathname} stopped at page ${page}: ${response.status}`));
        return;
      }
      previous = (await response.json()) as Page;
      controller.enqueue(rowsOf(previous));
      if (previous.data.length < MAX_LIMIT) controller.close();
    },
  });
  const day = new Date().toISOString().slice(0, 10);
  return c.body(body, 200, {
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="${route.resource}-${day}.csv"`,
    'X-Total-Count': String(total),
    'Cache-Control': 'no-store',
    Vary: 'Accept',
  });
}
