import { createTableRelationsHelpers, extractTablesRelationalConfig } from 'drizzle-orm';
import { type drizzle, DrizzleD1Database } from 'drizzle-orm/d1';
import { SQLiteD1Session } from 'drizzle-orm/d1/session';
import { SQLiteAsyncDialect } from 'drizzle-orm/sqlite-core';
import * as schema from './schema';

export type Database = ReturnType<typeof drizzle<typeof schema>>;

type RelationalSchema = ConstructorParameters<typeof SQLiteD1Session>[2];
let relational: RelationalSchema | undefined;

/**
 * The Drizzle database over a D1 binding, built per request (bindings exist only on `env`). It is
 * what `drizzle(d1, { schema })` builds, except that the relational config, which that call derives
 * by walking the whole schema (a measurable share of a catalogue read's CPU), depends only on the
 * schema and is derived once per isolate.
 */
export function createDb(d1: D1Database): Database {
  relational ??= (() => {
    const config = extractTablesRelationalConfig(schema, createTableRelationsHelpers);
    return { fullSchema: schema, schema: config.tables, tableNamesMap: config.tableNamesMap };
  })();
  const dialect = new SQLiteAsyncDialect();
  const session = new SQLiteD1Session(d1, dialect, relational, {}) as unknown as ConstructorParameters<typeof DrizzleD1Database>[2];
  const db = new DrizzleD1Database('async', dialect, session, relational) as Database;
  db.$client = d1;
  return db;
}
