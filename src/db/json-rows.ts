import { getTableColumns, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';

/**
 * Many rows in ONE bound parameter: a JSON array that the statement reads with `json_each`. So one
 * statement inserts or updates every row of a queue batch, whatever their number, its text never
 * changes (it can be compiled once per isolate, src/db/compiled.ts), and D1's limit of 100 bound
 * parameters a statement does not apply. Inside the statement `json_row` is the JSON row being read
 * (`json_each(?) AS json_row`) and `field('key')` one of its values.
 */

/** A value of the JSON row being read: `json_extract(json_row.value, '$.key')` (JSON null is SQL NULL). */
export function field(key: string): SQL {
  if (!/^\w+$/.test(key)) throw new Error(`not a JSON row field name: ${key}`);
  return sql.raw(`json_extract(json_row.value, '$.${key}')`);
}

/** `json_each(<param>) AS json_row`, for `update(...).set({ c: field('c') }).from(jsonEach(p('rows')))`. */
export const jsonEach = (param: Placeholder | string): SQL => sql`json_each(${param}) AS json_row`;

/** `<column> IN (SELECT value FROM json_each(<param>))`: a list of any length as one parameter. */
export const inJson = (column: SQLiteColumn | SQL, param: Placeholder | string): SQL => sql`${column} IN (SELECT value FROM json_each(${param}))`;

/**
 * The SELECT of an insert-select writing whole rows of `table` from the JSON parameter: every column,
 * in table order, as Drizzle's insert-select lists them. `WHERE true` keeps SQLite from reading an
 * `ON CONFLICT` that follows as a join constraint.
 */
export function rowsFromJson(table: SQLiteTable, param: Placeholder | string): SQL {
  const values = insertedColumns(table).map(([key]) => field(key));
  return sql`SELECT ${sql.join(values, sql`, `)} FROM ${jsonEach(param)} WHERE true`;
}

/**
 * Encodes whole rows of `table` for rowsFromJson: each value as its column stores it (a JSON column
 * as its text, a boolean as 0 or 1), so what json_extract reads back is exactly what an ordinary
 * insert would have bound. Split into parameters of at most `maxChars` characters (well under the
 * 2 MB D1 allows a value, even at 3 bytes a character), one statement each: a batch's rows are
 * almost always one.
 */
export function jsonRows<T extends SQLiteTable>(table: T, rows: readonly T['$inferSelect'][], maxChars = MAX_CHARS): string[] {
  const columns = insertedColumns(table);
  const encoded = rows.map((row) =>
    JSON.stringify(
      Object.fromEntries(
        columns.map(([key, column]) => {
          const value = (row as Record<string, unknown>)[key];
          return [key, value === null || value === undefined ? null : column.mapToDriverValue(value)];
        }),
      ),
    ),
  );
  return jsonChunks(encoded, maxChars);
}

/** Rows already shaped for a statement's `field()`s (plain values, no column encoding), as jsonRows splits them. */
export function jsonValues(rows: readonly Record<string, unknown>[], maxChars = MAX_CHARS): string[] {
  return jsonChunks(
    rows.map((row) => JSON.stringify(row)),
    maxChars,
  );
}

const MAX_CHARS = 512 * 1024;

function jsonChunks(encoded: string[], maxChars: number): string[] {
  const chunks: string[] = [];
  let current: string[] = [];
  let size = 2;
  for (const row of encoded) {
    if (current.length > 0 && size + row.length + 1 > maxChars) {
      chunks.push(`[${current.join(',')}]`);
      current = [];
      size = 2;
    }
    current.push(row);
    size += row.length + 1;
  }
  if (current.length > 0) chunks.push(`[${current.join(',')}]`);
  return chunks;
}

/** The columns an INSERT of `table` writes, as Drizzle's insert lists them: generated columns left out. */
export function insertedColumns(table: SQLiteTable): [string, SQLiteColumn][] {
  // shouldDisableInsert is not in Drizzle's types.
  return Object.entries(getTableColumns(table)).filter(([, column]) => !(column as unknown as { shouldDisableInsert(): boolean }).shouldDisableInsert());
}
