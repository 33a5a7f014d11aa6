import { fillPlaceholders, getTableColumns, type Placeholder, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Database } from './client';

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

/**
 * `compiled((db, p: Slot<'id'>) => db.select().from(t).where(eq(t.id, p('id'))))` returns
 * `(db, { id }) => query`. `build` runs once per isolate, so it must not close over request values:
 * every value goes through `p`.
 */
export function compiled<Name extends string, Query>(build: (db: Database, p: Slot<Name>) => Query): (db: Database, args: Record<Name, unknown>) => Query {
  let kept: { sql: string; params: unknown[]; fields: unknown; method: string; arrayMode: boolean; mapper: unknown; joins: unknown } | undefined;
  return (db, args) => {
    if (!kept) {
      const built = (build(db, placeholder) as unknown as Buildable)._prepare();
      kept = {
        sql: built.query.sql,
        params: built.query.params,
        fields: built.fields,
        method: built.executeMethod,
        arrayMode: built.isResponseInArrayMode(),
        mapper: built.customResultMapper,
        joins: built.joinsNotNullableMap,
      };
    }
    const shape = kept;
    const prepare = (): BuiltQuery => {
      const session = (db as unknown as { session: Session }).session;
      const query = session.prepareQuery({ sql: shape.sql, params: fillPlaceholders(shape.params, args) }, shape.fields, shape.method, shape.arrayMode, shape.mapper);
      query.joinsNotNullableMap = shape.joins;
      return query;
    };
    // What db.batch() calls on each query, and a thenable for `await`, as Drizzle's builders have.
    const runnable = {
      _prepare: prepare,
      // biome-ignore lint/suspicious/noThenProperty: a thenable on purpose, so that `await query` runs it as Drizzle's builders do.
      then: (resolve: (value: unknown) => unknown, reject: (reason: unknown) => unknown) => prepare().execute().then(resolve, reject),
    };
    return runnable as unknown as Query;
  };
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
