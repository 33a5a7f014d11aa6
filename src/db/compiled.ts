import { Column, fillPlaceholders, getTableColumns, is, type Placeholder, SQL, Subquery, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Database } from './client';
import { keptPerIsolate } from '../lib/isolate-state';
import { LruCache } from '../lib/lru';

/**
 * Queries on the hot write paths (placing an order prices six reads and writes ten rows) built by
 * Drizzle once per isolate instead of once per request. Building is most of their CPU: Drizzle walks
 * the query's SQL tree and escapes every name each time (about 0.2 ms a statement here), while the
 * text never changes, only the values. So the query is declared with `p(name)` where its values go
 * (Drizzle's sql.placeholder), built on first use, and from then on each call only fills the values
 * into the kept text and hands Drizzle a prepared statement: same SQL, same row mapping (column
 * modes, JSON, aliases), usable alone (`await`) or in `db.batch([...])`.
 *
 * A list of values of any length goes in as one JSON parameter (inJson in src/db/json-rows.ts),
 * so the text stays the same whatever the length.
 */

/** What Drizzle keeps of a built query (D1PreparedQuery's fields; internal to Drizzle, read here only). */
interface BuiltQuery {
  query: { sql: string; params: unknown[] };
  fields?: unknown;
  executeMethod: 'run' | 'all' | 'get' | 'values';
  customResultMapper?: unknown;
  joinsNotNullableMap?: unknown;
  isResponseInArrayMode(): boolean;
  execute(): Promise<unknown>;
}
interface Buildable {
  _prepare(): BuiltQuery;
}
interface Session {
  prepareQuery(query: { sql: string; params: unknown[] }, fields: unknown, executeMethod: string, isResponseInArrayMode: boolean, customResultMapper?: unknown): BuiltQuery;
}

const placeholder = (name: string): Placeholder => sql.placeholder(name);

/** Where a compiled query's values go, by name: `(db, p: Slot<'id'>) => ... eq(t.id, p('id'))`. */
export type Slot<Name extends string> = (name: Name) => Placeholder;

/** What a built query becomes, kept: its text, values (placeholders where declared) and how its rows are read. */
interface Shape {
  sql: string;
  params: unknown[];
  fields: unknown;
  method: string;
  arrayMode: boolean;
  mapper: unknown;
  joins: unknown;
}

/** Builds `query` once: Drizzle's text and values, with a row reader made for its fields (rowReader). */
function shapeOf(query: unknown): Shape {
  const built = (query as Buildable)._prepare();
  const fields = built.fields as SelectedField[] | undefined;
  const arrayMode = built.isResponseInArrayMode();
  // Flat selections only: a nested one (a join's `{ a: {...}, b: {...} }`) nulls a left join's missing side, which Drizzle's mapper does.
  const plain = fields?.every((f) => f.path.length === 1) && !built.customResultMapper && (built.executeMethod === 'all' || built.executeMethod === 'get');
  return {
    sql: built.query.sql,
    params: built.query.params,
    fields,
    method: built.executeMethod,
    arrayMode,
    mapper: plain && fields ? rowReader(fields, built.executeMethod === 'get') : built.customResultMapper,
    joins: built.joinsNotNullableMap,
  };
}

/** The query for `db` from its kept shape, with `args` filled into its placeholders: what db.batch() and `await` use. */
function runnable<Query>(db: Database, shape: Shape, args: Record<string, unknown>): Query {
  const prepare = (): BuiltQuery => {
    const session = (db as unknown as { session: Session }).session;
    const query = session.prepareQuery({ sql: shape.sql, params: fillPlaceholders(shape.params, args) }, shape.fields, shape.method, shape.arrayMode, shape.mapper);
    query.joinsNotNullableMap = shape.joins;
    return query;
  };
  // What db.batch() calls on each query, and a thenable for `await`, as Drizzle's builders have.
  const query = {
    _prepare: prepare,
    // biome-ignore lint/suspicious/noThenProperty: a thenable on purpose, so that `await query` runs it as Drizzle's builders do.
    then: (resolve: (value: unknown) => unknown, reject: (reason: unknown) => unknown) => prepare().execute().then(resolve, reject),
  };
  return query as unknown as Query;
}

/**
 * `compiled((db, p: Slot<'id'>) => db.select().from(t).where(eq(t.id, p('id'))))` returns
 * `(db, { id }) => query`. `build` runs once per isolate, so it must not close over request values:
 * every value goes through `p`.
 */
export function compiled<Name extends string, Query>(build: (db: Database, p: Slot<Name>) => Query): (db: Database, args: Record<Name, unknown>) => Query {
  let kept: Shape | undefined;
  return (db, args) => runnable(db, (kept ??= shapeOf(build(db, placeholder))), args);
}

/**
 * Reads whose text depends on the request (a product list: its filters, sort, page, the caller's
 * view) built once per distinct request and kept (LRU, per isolate): `build` must be a function of
 * what `key` names alone, values included, and returns named queries (those db.batch() takes). A
 * list rendered again, as every hot list is after each catalogue change, skips Drizzle's building;
 * a new key (another search word) is built as before.
 */
export function keptQueries<Queries extends Record<string, unknown>>(db: Database, key: string, build: () => Queries): Queries {
  let shapes = keptShapes.get(key);
  if (!shapes) {
    shapes = Object.fromEntries(Object.entries(build()).map(([name, query]) => [name, query === undefined ? undefined : shapeOf(query)]));
    keptShapes.set(key, shapes, key.length + Object.values(shapes).reduce((sum, s) => sum + (s ? s.sql.length * 2 + 512 : 0), 0));
  }
  return Object.fromEntries(Object.entries(shapes).map(([name, shape]) => [name, shape && runnable(db, shape, {})])) as Queries;
}

const keptShapes = new LruCache<Record<string, Shape | undefined>>({ maxEntries: 1000, maxBytes: 4 * 1024 * 1024 });
keptPerIsolate(() => keptShapes.clear());

/** A selected field as Drizzle lists it for a built query: where its value goes, and what decodes it. */
interface SelectedField {
  path: string[];
  field: unknown;
}
type Decoder = { mapFromDriverValue(value: unknown): unknown };

/**
 * Rows into objects as Drizzle's mapResultRow does for a select without joins, but with each field's
 * decoder found once per query instead of once per value (mapResultRow tests every field's class for
 * every row: the largest cost of reading a page of products). A decoder that returns its value as is
 * (a plain text or integer column) is not called.
 */
function rowReader(fields: SelectedField[], single: boolean) {
  const identity = Column.prototype.mapFromDriverValue;
  const readers = fields.map(({ path, field }) => {
    // Drizzle's own choice of decoder (mapResultRow); `decoder` is internal to its SQL objects.
    const internal = field as { decoder: Decoder; _: { sql: { decoder: Decoder } }; sql: { decoder: Decoder } };
    const decoder = is(field, Column) ? field : is(field, SQL) ? internal.decoder : is(field, Subquery) ? internal._.sql.decoder : internal.sql.decoder;
    return { path, decode: decoder.mapFromDriverValue === identity ? undefined : (value: unknown) => decoder.mapFromDriverValue(value) };
  });
  const read = (row: unknown[]) => {
    const result: Record<string, unknown> = {};
    for (let i = 0; i < readers.length; i++) {
      const { path, decode } = readers[i]!;
      const raw = row[i];
      const value = raw === null || !decode ? raw : decode(raw);
      let node = result;
      for (let j = 0; j < path.length - 1; j++) node = (node[path[j]!] ??= {}) as Record<string, unknown>;
      node[path[path.length - 1]!] = value;
    }
    return result;
  };
  return single ? (rows: unknown[][]) => (rows[0] ? read(rows[0]) : undefined) : (rows: unknown[][]) => rows.map(read);
}

/**
 * A compiled INSERT of one whole row of `table`: every column a placeholder named by its key, so the
 * call passes the row (every column given, null where empty; JSON columns are encoded as usual).
 */
export function compiledInsert<T extends SQLiteTable>(table: T): (db: Database, row: T['$inferSelect']) => BatchItem<'sqlite'> {
  const columns = Object.keys(getTableColumns(table));
  const insert = compiled((db, p: Slot<string>) => db.insert(table).values(Object.fromEntries(columns.map((key) => [key, p(key)])) as never));
  return (db, row) => insert(db, row as Record<string, unknown>) as unknown as BatchItem<'sqlite'>;
}
