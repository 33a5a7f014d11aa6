import { createTableRelationsHelpers, extractTablesRelationalConfig } from 'drizzle-orm';
import { type drizzle, DrizzleD1Database } from 'drizzle-orm/d1';
import { SQLiteD1Session } from 'drizzle-orm/d1/session';
import { SQLiteAsyncDialect } from 'drizzle-orm/sqlite-core';
import { RelationalQueryBuilder } from 'drizzle-orm/sqlite-core/query-builders/query';
import * as schema from './schema';

export type Database = ReturnType<typeof drizzle<typeof schema>>;

type RelationalSchema = ConstructorParameters<typeof SQLiteD1Session>[2];
let relational: RelationalSchema | undefined;

/**
 * The Drizzle database over a D1 binding, built per request (bindings exist only on `env`). It is
 * what `drizzle(d1, { schema })` builds, except for two costs that showed in profiles of every
 * request: the relational config, which that call derives by walking the whole schema, depends only
 * on the schema and is derived once per isolate; and the `db.query.<table>` builders, which Drizzle
 * makes for all ~50 tables up front, are made on first use (a request touches a few, most none).
 */
export function createDb(d1: D1Database): Database {
  const config = (relational ??= (() => {
    const tables = extractTablesRelationalConfig(schema, createTableRelationsHelpers);
    return { fullSchema: schema, schema: tables.tables, tableNamesMap: tables.tableNamesMap };
  })());
  const dialect = new SQLiteAsyncDialect();
  const session = new SQLiteD1Session(d1, dialect, config, {}) as unknown as ConstructorParameters<typeof DrizzleD1Database>[2];
  // Built without the schema (no builders), then given it: `db._` as Drizzle sets it, `db.query` lazily.
  const db = new DrizzleD1Database('async', dialect, session, undefined) as unknown as Database;
  const tables = config.schema as Record<string, ConstructorParameters<typeof RelationalQueryBuilder>[5]>;
  Object.assign(db, { _: { schema: config.schema, fullSchema: config.fullSchema, tableNamesMap: config.tableNamesMap } });
  const built: Record<string, unknown> = {};
  db.query = new Proxy(built, {
    get(target, name) {
      if (typeof name !== 'string' || !(name in tables)) return undefined;
      return (target[name] ??= new RelationalQueryBuilder(
        'async',
        config.fullSchema,
        config.schema,
        config.tableNamesMap,
        config.fullSchema[name as keyof typeof schema] as never,
        tables[name]!,
        dialect,
        session as never,
      ));
    },
  }) as Database['query'];
  db.$client = d1;
  return db;
}
