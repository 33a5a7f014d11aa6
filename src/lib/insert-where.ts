import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Database } from '../db/client';

/**
 * `INSERT INTO t (...) SELECT ... WHERE condition`: an insert guarded by a precondition in the same
 * statement, the only race-free "insert unless" D1 offers (it has no interactive transactions).
 * Takes a complete row (drizzle's insert-select writes every column, in table order) and returns the
 * statement for `db.batch`; its `meta.changes` is 0 when the condition did not hold.
 */
export function insertWhere<T extends SQLiteTable>(db: Database, table: T, row: T['$inferSelect'], condition: SQL) {
  const values = Object.entries(getTableColumns(table)).map(([key, column]) => sql.param((row as Record<string, unknown>)[key] ?? null, column));
  return db.insert(table).select(sql`SELECT ${sql.join(values, sql`, `)} WHERE ${condition}`);
}
