import { getTableName } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import { inGroupsOf } from '../lib/in-groups';
import type { Database } from './client';
import { insertedColumns } from './json-rows';

/**
 * D1 binds at most 100 parameters a statement: one that binds more fails whole, before it runs,
 * with `D1_ERROR: too many SQL variables` (the same statement fails the same way every time).
 */
export const D1_MAX_BOUND_PARAMETERS = 100;

/**
 * How many rows of `table` one INSERT may carry. Drizzle's multi-row INSERT writes every column of
 * the table for every row, a given value or a default as one bound parameter each (an SQL default is
 * written inline), so a row binds at most as many values as the table has columns, whichever the
 * caller gave. Counted from the table, never by hand: a hand count of 12 for the 14 columns of
 * `product_variants` made eight variants bind 112 values, and every import of a product with more
 * than seven variants failed.
 */
export function rowsPerInsert(table: SQLiteTable): number {
  const columns = insertedColumns(table).length;
  if (columns > D1_MAX_BOUND_PARAMETERS) throw new Error(`${getTableName(table)} has ${columns} columns: one row binds more values than D1 takes`);
  return Math.floor(D1_MAX_BOUND_PARAMETERS / columns);
}

/**
 * The INSERTs that write `rows` into `table`, each binding at most D1's 100 values: the one way rows
 * are inserted in bulk, for `db.batch([...])` (one transaction, so the rows land together or not at
 * all). Rows are plain values (`$inferInsert`), one bound parameter a column; an SQL value could
 * bind more. A conflict clause chained on a statement must bind nothing (`onConflictDoNothing()`, or
 * a `set` of SQL such as `excluded.x`). test/d1/bound-parameters.test.ts builds the widest row of
 * every table and checks the statements against D1.
 */
export function bulkInserts<T extends SQLiteTable>(db: Database, table: T, rows: readonly T['$inferInsert'][]) {
  return inGroupsOf(rows, rowsPerInsert(table)).map((group) => db.insert(table).values(group as T['$inferInsert'][]));
}

/** What Drizzle builds of a statement for `db.batch()`: a builder's or a compiled statement's (src/db/compiled.ts) `_prepare()`. */
interface Preparable {
  _prepare(): { query: { params: unknown[] } };
}

/** The values a statement binds, exactly as `db.batch()` hands it to D1. */
export function boundParameters(statement: unknown): number {
  return (statement as Preparable)._prepare().query.params.length;
}

/** The first of `statements` that binds more values than D1 takes (its index and count); undefined when every one fits. */
export function overBoundLimit(statements: readonly unknown[], limit = D1_MAX_BOUND_PARAMETERS): { index: number; bound: number } | undefined {
  for (const [index, statement] of statements.entries()) {
    const bound = boundParameters(statement);
    if (bound > limit) return { index, bound };
  }
  return undefined;
}
