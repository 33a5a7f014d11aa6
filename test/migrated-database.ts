import { applyD1Migrations, type D1Migration, reset } from 'cloudflare:test';

/**
 * The migrated database of every test file, made quickly. The first file of a test runtime applies
 * the migrations (as `wrangler d1 migrations apply` would, `d1_migrations` included) and reads back
 * what they made: the schema from `sqlite_master` and every row they inserted. Each later file of
 * that runtime (its storage wiped by test/fresh-runtime.ts) gets the same database from that
 * snapshot in one batch: tables, their rows, then indexes and triggers, so no trigger fires on the
 * copied rows. FTS5 tables are made again by their own statement, which makes their shadow tables.
 */
type Statement = [string, ...unknown[]];
let snapshot: Statement[] | undefined;

export async function migratedDatabase(db: D1Database, migrations: D1Migration[]): Promise<void> {
  if (snapshot) {
    const copy = () => db.batch(snapshot!.map(([sql, ...values]) => db.prepare(sql).bind(...values)));
    // Seen once under load: the copy refused with "table d1_migrations already exists", the database
    // not empty after reset(). Whatever left it, storage is wiped again and the copy made once more.
    await copy().catch(async () => {
      await reset();
      await copy();
    });
    return;
  }
  await applyD1Migrations(db, migrations);
  snapshot = await snapshotOf(db);
}

/** The tables FTS5 makes beside each of its virtual tables (and makes again with it). */
const FTS5_SHADOWS = ['data', 'idx', 'content', 'docsize', 'config'];

interface SchemaRow {
  type: 'table' | 'index' | 'trigger' | 'view';
  name: string;
  tbl_name: string;
  sql: string;
}

/** The statements (with their bound values) that make `db` again in an empty database. */
async function snapshotOf(db: D1Database): Promise<Statement[]> {
  const { results } = await db
    .prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' ORDER BY rowid")
    .all<SchemaRow>();
  const virtual = results.filter((r) => r.type === 'table' && /^CREATE VIRTUAL TABLE/i.test(r.sql)).map((r) => r.name);
  const isShadow = (name: string) => virtual.some((table) => FTS5_SHADOWS.some((suffix) => name === `${table}_${suffix}`));
  const tables = results.filter((r) => r.type === 'table' && !isShadow(r.name));
  const statements: Statement[] = [['PRAGMA defer_foreign_keys = ON'], ...tables.map((t): Statement => [t.sql])];
  for (const table of tables) {
    if (virtual.includes(table.name)) continue;
    const { results: rows } = await db.prepare(`SELECT * FROM "${table.name}"`).all<Record<string, unknown>>();
    for (const row of rows) {
      const columns = Object.keys(row);
      statements.push([`INSERT INTO "${table.name}" (${columns.map((c) => `"${c}"`).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`, ...Object.values(row)]);
    }
  }
  for (const type of ['index', 'view', 'trigger'] as const) {
    for (const row of results) if (row.type === type && !isShadow(row.tbl_name)) statements.push([row.sql]);
  }
  return statements;
}
