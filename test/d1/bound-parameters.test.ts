import { type Column, getTableColumns, getTableName, is, sql } from 'drizzle-orm';
import { getTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import { boundParameters, bulkInserts, D1_MAX_BOUND_PARAMETERS, rowsPerInsert } from '../../src/db/bound-parameters';
import { insertedColumns } from '../../src/db/json-rows';
import * as schema from '../../src/db/schema';
import { db } from '../helpers';

// bulkInserts (src/db/bound-parameters.ts) against the widest row of every table of the schema:
// every column given a value, so each row binds as many values as its table has columns. Each
// statement must bind at most D1's 100 values, hold as many rows as fit, and D1 must take it (its
// constraints and triggers run) while refusing a statement of one row more.

const tables: SQLiteTable[] = (Object.values(schema) as unknown[]).filter((value): value is SQLiteTable => is(value, SQLiteTable));

/** A value of a column's type, different for each row `i` (distinct keys), within every CHECK of the schema. */
function testValue(column: Column, i: number): unknown {
  switch (column.columnType) {
    case 'SQLiteText':
      return column.enumValues?.length ? column.enumValues[0] : `${column.name}-${i}`;
    case 'SQLiteInteger':
      return 1000 + i; // past the single rows migrations seed (id 1)
    case 'SQLiteReal':
      return i + 0.5;
    case 'SQLiteBoolean':
      return false; // a partial unique index admits one true row, which a migration may have seeded
    case 'SQLiteTextJson':
      return {};
  }
  throw new Error(`no test value for ${column.columnType} (${column.name}): add one to testValue`);
}

/** The columns `table`'s foreign keys name, by the column of `table` that names each. */
function references(table: SQLiteTable): Map<Column, Column> {
  const map = new Map<Column, Column>();
  for (const fk of getTableConfig(table).foreignKeys) {
    const { columns, foreignColumns } = fk.reference();
    columns.forEach((column, k) => map.set(column, foreignColumns[k]!));
  }
  return map;
}

/**
 * `count` rows of `table`: every column given (the widest row), or only those a row cannot do without
 * (`narrow`, for the parents a child's triggers read). A reference takes the value its parent's row
 * of the same index has; one to the table itself points past the rows inserted (foreign keys are
 * deferred and the batch never commits).
 */
function rowsOf(table: SQLiteTable, count: number, narrow = false): Record<string, unknown>[] {
  const refs = references(table);
  const referenced = new Set(tables.flatMap((other) => [...references(other).values()]));
  const columns = Object.entries(getTableColumns(table)).filter(([, c]) => !narrow || (c.notNull && !c.hasDefault) || c.primary || referenced.has(c));
  return Array.from({ length: count }, (_, i) =>
    Object.fromEntries(
      columns.map(([key, column]) => {
        const target = refs.get(column);
        if (!target) return [key, testValue(column, i)];
        return [key, getTableName(target.table) === getTableName(table) ? testValue(target, i + count) : testValue(target, i)];
      }),
    ),
  );
}

/** What a statement failed with: Drizzle's message and D1's own, its cause. */
const failureOf = (statement: PromiseLike<unknown>) =>
  Promise.resolve(statement).then(
    () => 'no failure',
    (error: Error) => `${error.message} ${String(error.cause ?? '')}`,
  );

describe('bulk inserts of the widest row of every table', () => {
  it('covers the whole schema', () => {
    expect(tables.map(getTableName)).toEqual(expect.arrayContaining(['product_variants', 'product_categories', 'import_failures', 'return_lines', 'shipment_lines']));
  });

  it.each(tables.map((table) => [getTableName(table), table] as const))('%s: each statement binds at most 100 values, as many rows as fit', (_, table) => {
    const columns = insertedColumns(table).length;
    const perStatement = rowsPerInsert(table);
    const rows = rowsOf(table, 2 * perStatement + 1);
    const bound = bulkInserts(db(), table, rows as never).map(boundParameters);
    // The widest row binds one value a column: two full statements and one of the last row.
    expect(bound).toEqual([perStatement * columns, perStatement * columns, columns]);
    expect(Math.max(...bound)).toBeLessThanOrEqual(D1_MAX_BOUND_PARAMETERS);
    expect(bound[0]! + columns).toBeGreaterThan(D1_MAX_BOUND_PARAMETERS);
  });

  it.each(tables.map((table) => [getTableName(table), table] as const))('%s: D1 inserts a full statement and refuses one row more', async (_, table) => {
    const d = db();
    const perStatement = rowsPerInsert(table);
    const [insert] = bulkInserts(d, table, rowsOf(table, perStatement) as never);
    const parents = [...new Set(getTableConfig(table).foreignKeys.map((fk) => fk.reference().foreignTable))].filter((parent) => parent !== table);
    // The insert runs with its constraints and triggers (reading the parent rows inserted before it);
    // the last statement always aborts, so nothing commits. Any other error is the insert's.
    const run = d.batch([
      d.run(sql`PRAGMA defer_foreign_keys = ON`),
      ...parents.flatMap((parent) => bulkInserts(d, parent, rowsOf(parent, perStatement, true) as never)),
      insert!,
      d.run(sql`INSERT INTO write_guards (name, ok) VALUES ('bound parameters test', 0)`),
    ] as never);
    expect(await failureOf(run)).toMatch(/write_guards: unknown guard/);
    expect(await failureOf(d.insert(table).values(rowsOf(table, perStatement + 1) as never))).toMatch(/D1_ERROR: too many SQL variables/);
  });
});
