import { z } from '@hono/zod-openapi';
import { and, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { type FieldTree, FieldSyntaxError, parseFields } from './fields';
import { continuationOf, type Cursor, keysetCondition } from './keyset';
import { orderByFor, parseSort, type SortKey, SortSyntaxError } from './sort';
import { numberQuery } from './typed';
import { CONFIG_DEFAULTS } from '../../config';

export const DEFAULT_LIMIT = 20;
export const MAX_LIMIT = 100;
/** The most rows a CSV export holds unless CSV_EXPORT_MAX_ROWS says otherwise (src/middleware/csv-export.ts): 100 pages. */
export const DEFAULT_CSV_EXPORT_MAX_ROWS = CONFIG_DEFAULTS.CSV_EXPORT_MAX_ROWS;
const MAX_PAGE = 1_000_000;

/** One declared filter: how its query value parses and which SQL condition it becomes. */
export interface FilterSpec<T> {
  schema: z.ZodType<T, string | undefined>;
  where: (value: NonNullable<T>) => SQL | undefined;
}

/** A resource's filters, each of its own value type: FilterSpec<T> is invariant in T, so only `any` admits them all. */
// biome-ignore lint/suspicious/noExplicitAny: see above.
export type AnyFilters = Record<string, FilterSpec<any>>;

/**
 * Everything a list endpoint lets a client ask for, declared as data in one place per resource
 * (like Medusa's query-config): sortable columns, the default order, selectable fields and filters.
 */
export interface ListQueryConfig<F extends AnyFilters> {
  resource: string;
  id: SQLiteColumn;
  /** Columns, or SQL a caller's reach puts in their place (a vendor's own total of an order). */
  sortable: Record<string, SQLiteColumn | SQL>;
  defaultSort: SortKey[];
  selectable: FieldTree;
  filters: F;
}

export function defineListQuery<F extends AnyFilters>(config: ListQueryConfig<F>) {
  return config;
}

type FilterValues<F> = { [K in keyof F]?: F[K] extends FilterSpec<infer T> ? NonNullable<T> : never };

export interface ParsedListQuery<F> {
  page: number;
  limit: number;
  sort: SortKey[];
  fields?: FieldTree;
  filters: FilterValues<F>;
  /** Set only on a CSV export's internal page requests (src/lib/query/keyset.ts): start after this item. */
  after?: Cursor;
}

function integerParam(name: string, min: number, max: number, fallback: number) {
  const message = `must be a whole number from ${min} to ${max}`;
  return numberQuery(/^\d{1,9}$/, z.int({ error: message }).min(min, message).max(max, message))
    .optional()
    .transform((value) => value ?? fallback)
    .openapi({ param: { name, in: 'query' }, default: fallback });
}

/**
 * What a `fields` selection does to an answer, said once: in the `fields` parameter of every operation
 * that takes one, in the document's introduction (src/app.ts), and, for code generators, by the
 * `x-fields-selection: true` extension on each such operation (see `fieldSelection`).
 */
export const FIELDS_SELECTION_NOTE =
  'A `fields` selection returns only the selected properties, so properties the response schema marks required may be absent: ' +
  'clients and validators should treat them as optional then.';

/** The operation-level extension marking that `fields=` may trim the answer. */
export const FIELDS_SELECTION_EXTENSION = 'x-fields-selection';

/** The query schemas built here that take `fields` (so a route declaring one is marked; see `fieldSelection`). */
const selectingQueries = new WeakSet<object>();
/** Each list query schema's config, for the CSV export (`listConfigOf`). */
const listConfigs = new WeakMap<object, ListQueryConfig<AnyFilters>>();
/** The parsed list queries, which a CSV export's page request may continue (`continueParsedList`). */
const parsedLists = new WeakSet<object>();

/** `{ 'x-fields-selection': true }` for an operation whose query schema takes `fields`, else nothing. */
export function fieldSelection(query: unknown): { [FIELDS_SELECTION_EXTENSION]?: true } {
  return typeof query === 'object' && query !== null && selectingQueries.has(query) ? { [FIELDS_SELECTION_EXTENSION]: true } : {};
}

/** `fields=id,name,variants(id,price)`, checked against what the resource can return. */
export function fieldsParam(selectable: FieldTree) {
  return z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined) return undefined;
      try {
        return parseFields(raw, selectable);
      } catch (error) {
        if (!(error instanceof FieldSyntaxError)) throw error;
        ctx.addIssue({ code: 'custom', message: error.message });
        return z.NEVER;
      }
    })
    .openapi({
      description:
        'Comma-separated fields to return; nested selection as `name(sub1,sub2)`. Names may be snake_case. ' +
        `Top-level fields: ${Object.keys(selectable).join(', ')}. ${FIELDS_SELECTION_NOTE}`,
      example: 'id,name,price',
    });
}

/** The query schema of a single-resource read: only `fields`. */
export function readQuerySchema(selectable: FieldTree) {
  return readQuerySchemaWith(selectable, {});
}

/** The query schema of a single-resource read taking parameters of its own (`extra`) beside `fields`. */
export function readQuerySchemaWith<Extra extends z.ZodRawShape>(selectable: FieldTree, extra: Extra) {
  const schema = z.strictObject({ fields: fieldsParam(selectable), ...extra });
  selectingQueries.add(schema);
  return schema;
}

// The parameters every list has, the same for all: built once, on the first list's routes (not once
// for each of ~25 lists, nor at startup before a module needs one: docs/architecture.md#startup).
const buildSharedParams = () => ({
  page: integerParam('page', 1, MAX_PAGE, 1).openapi({ description: 'Page number, from 1. A page past the end is an empty list.' }),
  limit: integerParam('limit', 1, MAX_LIMIT, DEFAULT_LIMIT).openapi({ description: `Items per page, 1 to ${MAX_LIMIT}.` }),
  format: z
    .enum(['json', 'csv'])
    .optional()
    .openapi({
      description:
        '`csv`: every item matching the filters (not one page) as CSV, streamed; so does `Accept: text/csv`. Columns are the `fields` ' +
        'selected, else every field; nested fields are `a.b` columns, a list\'s values are joined with "; ". `page` and `limit` do not apply. ' +
        `Each page of ${MAX_LIMIT} rows read counts as one request against the rate limit; 429 RATE_LIMITED before any row when the ` +
        `remaining requests cannot cover the pages. At most CSV_EXPORT_MAX_ROWS rows (${DEFAULT_CSV_EXPORT_MAX_ROWS} by default): more is 413 INVALID_REQUEST ` +
        'naming how many matched (narrow the filters).',
    }),
});
let shared: ReturnType<typeof buildSharedParams> | undefined;
const sharedParams = () => (shared ??= buildSharedParams());

/**
 * The query schema of a list endpoint, built from its config: validation, parsing and the OpenAPI
 * parameters all come from here. Unknown parameters are rejected so that a typo never silently
 * returns an unfiltered list.
 */
export function listQuerySchema<F extends AnyFilters>(config: ListQueryConfig<F>) {
  const sortable = Object.keys(config.sortable);
  const defaultSort = config.defaultSort.map((k) => `${k.field}:${k.direction}`).join(',');
  const filterShape = Object.fromEntries(Object.entries(config.filters).map(([name, spec]) => [name, spec.schema]));
  const { page, limit, format } = sharedParams();
  const schema = z
    .strictObject({
      page,
      limit,
      sort: z
        .string()
        .optional()
        .transform((raw, ctx) => {
          if (raw === undefined) return config.defaultSort;
          try {
            return parseSort(raw, sortable);
          } catch (error) {
            if (!(error instanceof SortSyntaxError)) throw error;
            ctx.addIssue({ code: 'custom', message: error.message });
            return z.NEVER;
          }
        })
        .openapi({
          description: `Comma-separated \`field:direction\` keys applied in order (direction asc by default; ties end on id, in the direction of the last key). Sortable: ${sortable.join(', ')}. Default: ${defaultSort}.`,
          example: `${sortable[0]}:desc`,
        }),
      fields: fieldsParam(config.selectable),
      format,
      ...filterShape,
    })
    .transform((query) => {
      const {
        page,
        limit,
        sort,
        fields,
        format: _csvIsAnsweredBefore,
        ...rest
      } = query as Record<string, unknown> & {
        page: number;
        limit: number;
        sort: SortKey[];
        fields?: FieldTree;
      };
      const filters = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)) as FilterValues<F>;
      const parsed: ParsedListQuery<F> = { page, limit, sort, fields, filters };
      parsedLists.add(parsed);
      return parsed;
    });
  selectingQueries.add(schema);
  listConfigs.set(schema, config);
  return schema;
}

/** The config a list route's query schema was built from, or undefined for any other schema. */
export function listConfigOf(querySchema: unknown): ListQueryConfig<AnyFilters> | undefined {
  return typeof querySchema === 'object' && querySchema !== null ? listConfigs.get(querySchema) : undefined;
}

/**
 * Gives a parsed list query the item a CSV export's page request starts after, when `request` is
 * such a request (src/lib/query/keyset.ts); run by the validation hook on every parsed query.
 */
export function continueParsedList(request: Request, parsed: unknown) {
  const cursor = continuationOf(request);
  if (cursor && typeof parsed === 'object' && parsed !== null && parsedLists.has(parsed)) (parsed as ParsedListQuery<never>).after = cursor;
}

/**
 * The SQL pieces of a parsed list query: `matching`, the condition of every row the list matches
 * (its total counts these), `where`, the condition of this page's rows, order and window. They
 * differ on a CSV export's page that starts after the previous page's last item (src/lib/query/keyset.ts):
 * `where` adds `(sort columns, id) > (its values)` and the offset is 0; where the sort cannot be
 * walked so, the page is read by offset like any other.
 */
export function listPlan<F extends AnyFilters>(config: ListQueryConfig<F>, query: ParsedListQuery<F>, extraConditions: (SQL | undefined)[] = []) {
  const conditions = Object.entries(query.filters).map(([name, value]) => config.filters[name]!.where(value as never));
  const matching = and(...conditions, ...extraConditions);
  const after = query.after && keysetCondition(config, query.sort, query.after);
  return {
    matching,
    where: after ? and(matching, after) : matching,
    orderBy: orderByFor(query.sort, config.sortable, config.id),
    limit: query.limit,
    offset: after ? 0 : (query.page - 1) * query.limit,
  };
}
