import { is, type SQL, sql } from 'drizzle-orm';
import { type SQLiteColumn, SQLiteText } from 'drizzle-orm/sqlite-core';
import { parseSort, type SortKey } from './sort';

/**
 * Keyset pages for the CSV export (src/middleware/csv-export.ts), which alone may ask for them: it
 * marks the internal request of each next page with the previous page's last item (its sort
 * values and id, as its JSON showed them), and the list engine starts that page after the item
 * instead of skipping `(page - 1) * limit` rows, so a deep page reads its own rows only. No query
 * parameter does this, so no client can; the request keeps its `page` for the kept answers and
 * for a list that cannot walk by keyset.
 */
const continuations = new WeakMap<Request, Cursor>();

/** The previous page's last item, reduced to the fields its sort reads (`keysetFields`). */
export type Cursor = Record<string, string>;

/** Marks an internal page request to start after `cursor`. */
export function continueAfter(request: Request, cursor: Cursor): Request {
  continuations.set(request, cursor);
  return request;
}

/** The item a marked page starts after, if the request is marked. */
export function continuationOf(request: Request): Cursor | undefined {
  return continuations.get(request);
}

/**
 * What tells a marked page's answer from the same URL's by offset, for keeping answers
 * (src/middleware/catalogue-cache.ts): empty for any other request. Both show page N while the
 * list holds still, but not once it has changed between the export's pages.
 */
export function continuationKey(request: Request): string {
  const cursor = continuations.get(request);
  return cursor ? `${new URL(request.url).search ? '&' : '?'}~after=${encodeURIComponent(JSON.stringify(cursor))}` : '';
}

interface Sortable {
  id: SQLiteColumn;
  /** A sort may be an SQL expression (a vendor's own order total): never walked by keyset. */
  sortable: Record<string, SQLiteColumn | SQL>;
}

/**
 * The sort's columns with the JSON field each is read from, the id last (the tie-break), when the
 * list can start after an item by them; else undefined (the page is read by offset). That takes
 * one direction for every key (a row comparison) and columns whose JSON value is the text they
 * store, never null: text columns (ids, timestamps, names, codes), not money or JSON ones.
 */
function keysetColumns(config: Sortable, sort: SortKey[]): { field: string; column: SQLiteColumn }[] | undefined {
  const direction = sort[sort.length - 1]?.direction ?? 'asc';
  if (sort.some((key) => key.direction !== direction)) return undefined;
  const keys: { field: string; column: SQLiteColumn }[] = [];
  for (const key of sort) {
    const column = config.sortable[key.field];
    if (!is(column, SQLiteText) || !column.notNull) return undefined;
    keys.push({ field: key.field, column });
  }
  if (!keys.some((key) => key.column === config.id)) keys.push({ field: 'id', column: config.id });
  return keys;
}

/** The JSON fields a page's last item must carry for the next page to start after it, or undefined where the sort cannot. */
export function keysetFields(config: Sortable & { defaultSort: SortKey[] }, rawSort: string | undefined): string[] | undefined {
  let sort = config.defaultSort;
  try {
    if (rawSort !== undefined) sort = parseSort(rawSort, Object.keys(config.sortable));
  } catch {
    return undefined; // the page itself answers the bad sort
  }
  return keysetColumns(config, sort)?.map((key) => key.field);
}

/** `(sort columns, id) > (the cursor's values)` (`<` for a descending sort), or undefined to read by offset. */
export function keysetCondition(config: Sortable, sort: SortKey[], cursor: Cursor): SQL | undefined {
  const keys = keysetColumns(config, sort);
  if (!keys || keys.some((key) => typeof cursor[key.field] !== 'string')) return undefined;
  const after = sort[sort.length - 1]?.direction === 'desc' ? sql`<` : sql`>`;
  const columns = sql.join(
    keys.map((key) => key.column),
    sql`, `,
  );
  const values = sql.join(
    keys.map((key) => sql`${cursor[key.field]}`),
    sql`, `,
  );
  return sql`(${columns}) ${after} (${values})`;
}
