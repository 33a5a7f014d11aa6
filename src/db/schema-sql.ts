/**
 * schema.sql, at the repository's root: the database after every migration, as sqlite_master holds
 * it, so the live definition of every table, index and trigger is readable in one file (a trigger's
 * body is otherwise found only by reading migrations/ in order: many redefine earlier ones).
 * `npm run db:schema` (scripts/schema-sql.ts) writes it from a scratch database it migrates;
 * test/d1/schema-sql.test.ts renders the test database's the same way and fails when they differ.
 */

/** A row of sqlite_master. */
export interface SchemaObject {
  type: string;
  name: string;
  tbl_name: string;
  sql: string | null;
}

export const SCHEMA_OBJECTS_SQL = 'SELECT type, name, tbl_name, sql FROM sqlite_master';

/** Objects of the platform, not of the migrations: wrangler's record of applied migrations, D1's own tables, SQLite's. */
const PLATFORM = /^(sqlite_|_cf_|d1_migrations$)/;

/** The tables FTS5 makes beside each of its virtual tables (test/migrated-database.ts). */
const FTS5_SHADOWS = ['data', 'idx', 'content', 'docsize', 'config'];

const HEADER = `-- The database after every migration in migrations/, as sqlite_master holds it: each table (by
-- name) followed by its indexes and triggers, then the views. Written by \`npm run db:schema\`;
-- test/d1/schema-sql.test.ts fails when it differs from the migrated database. Read it, never run
-- it: the migrations make the database. Declared triggers: src/db/triggers/.
`;

const byName = (a: SchemaObject, b: SchemaObject) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The objects schema.sql shows, in its order: each table, its indexes, its triggers; then the views. */
export function schemaObjects(objects: readonly SchemaObject[]): SchemaObject[] {
  const shown = objects.filter((o) => o.sql !== null && !PLATFORM.test(o.name) && !PLATFORM.test(o.tbl_name));
  const virtual = shown.filter((o) => o.type === 'table' && /^CREATE\s+VIRTUAL\s+TABLE/i.test(o.sql!)).map((o) => o.name);
  const isShadow = (name: string) => virtual.some((table) => FTS5_SHADOWS.some((suffix) => name === `${table}_${suffix}`));
  const kept = shown.filter((o) => !isShadow(o.tbl_name));
  const ordered: SchemaObject[] = [];
  for (const table of kept.filter((o) => o.type === 'table').sort(byName)) {
    ordered.push(table);
    for (const type of ['index', 'trigger']) ordered.push(...kept.filter((o) => o.type === type && o.tbl_name === table.name).sort(byName));
  }
  ordered.push(...kept.filter((o) => o.type === 'view').sort(byName));
  const unplaced = kept.filter((o) => !ordered.includes(o));
  if (unplaced.length) throw new Error(`schema objects of no table: ${unplaced.map((o) => `${o.type} ${o.name}`).join(', ')}`);
  return ordered;
}

/** One object as schema.sql shows it. */
export const schemaStatement = (object: SchemaObject) => `${object.sql!.trim()};`;

/** schema.sql's text for the objects of sqlite_master: a blank line between statements, but a table's indexes kept together. */
export function schemaSql(objects: readonly SchemaObject[]): string {
  let text = HEADER;
  let previous: SchemaObject | undefined;
  for (const object of schemaObjects(objects)) {
    const sameIndexes = previous?.type === 'index' && object.type === 'index';
    text += `${sameIndexes ? '' : '\n'}${schemaStatement(object)}\n`;
    previous = object;
  }
  return text;
}
