// The local D1 database `wrangler dev` uses, opened in this process through Miniflare as
// `wrangler d1 execute --local` opens it (same persistence folder, same database id), so a script can
// run many statements with one runtime start instead of one `wrangler` process per step.

import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Miniflare } from 'miniflare';
import { DB_BINDING, ROOT } from './wrangler.mjs';

/** The id wrangler gives the local database: the binding's `preview_database_id`, else its `database_id`. */
async function localDatabaseId() {
  const toml = await readFile(path.join(ROOT, 'wrangler.toml'), 'utf8');
  for (const block of toml.split(/^\[\[d1_databases\]\]\s*$/m).slice(1)) {
    const body = block.split(/^\[/m)[0];
    const field = (name) => new RegExp(`^${name}\\s*=\\s*"([^"]*)"`, 'm').exec(body)?.[1];
    if (field('binding') === DB_BINDING) return field('preview_database_id') ?? field('database_id');
  }
  throw new Error(`wrangler.toml has no [[d1_databases]] with binding = "${DB_BINDING}"`);
}

/**
 * Runs `work` with the local D1 database (a D1Database), then stops the runtime. `persistTo` is a
 * state folder as `wrangler --persist-to` takes it (the tests' Workers keep theirs apart); by default
 * the one `wrangler dev` uses.
 */
export async function withLocalD1(work, { persistTo = path.join(ROOT, '.wrangler', 'state') } = {}) {
  const id = await localDatabaseId();
  const mf = new Miniflare({ modules: true, script: '', d1Persist: path.join(persistTo, 'v3', 'd1'), d1Databases: { DATABASE: id } });
  try {
    return await work(await mf.getD1Database('DATABASE'));
  } finally {
    await mf.dispose();
  }
}

/**
 * A migration's statements: drizzle-kit separates them with `--> statement-breakpoint` (the
 * hand-written migrations follow it), so a trigger's inner semicolons need no SQL parser.
 * test/dev-migrations.node.test.ts checks every migration splits into single statements.
 */
export function migrationStatements(sql) {
  return sql
    .split('--> statement-breakpoint')
    .map((chunk) => chunk.trim())
    .filter((chunk) => chunk.replace(/--[^\n]*/g, '').trim() !== '');
}

const MIGRATIONS_DIR = path.join(ROOT, 'migrations');
/** The table wrangler records applied migrations in (wrangler.toml names no other), created as wrangler creates it. */
const MIGRATIONS_TABLE = 'd1_migrations';
const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS ${MIGRATIONS_TABLE}(
  id         INTEGER PRIMARY KEY AUTOINCREMENT,
  name       TEXT UNIQUE,
  applied_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL
);`;

/**
 * Applies the migrations the local database has not had, as `wrangler d1 migrations apply --local`
 * would: in file order, each followed by the row wrangler writes for it in `d1_migrations`, so a
 * later `wrangler d1 migrations apply` sees them applied. But in one runtime and one batch: wrangler
 * starts a runtime per migration (133 s for 73 of them on a loaded two-core machine, against 17 s
 * here; docs/contributing.md). `onPending` hears the names about to be applied, before the work starts.
 */
export function applyLocalMigrations(onPending = () => {}, options = {}) {
  return withLocalD1((db) => applyMigrations(db, onPending), options);
}

/** As applyLocalMigrations, on a database already open (withLocalD1). */
export async function applyMigrations(db, onPending = () => {}) {
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => /^\d+_[\w.-]+\.sql$/.test(f)).sort();
  {
    await db.prepare(CREATE_MIGRATIONS_TABLE).run();
    const { results } = await db.prepare(`SELECT name FROM ${MIGRATIONS_TABLE}`).all();
    const applied = new Set(results.map((r) => r.name));
    const pending = files.filter((f) => !applied.has(f));
    if (pending.length) onPending(pending);
    // One batch, so one transaction, for them all: a failure leaves the database as it was (and names
    // the migration), and a first run of 73 commits once instead of 73 times.
    const statements = [];
    for (const name of pending) {
      for (const sql of migrationStatements(await readFile(path.join(MIGRATIONS_DIR, name), 'utf8'))) statements.push({ name, sql });
      statements.push({ name, sql: `INSERT INTO ${MIGRATIONS_TABLE} (name) values ('${name}')` });
    }
    try {
      await db.batch(statements.map(({ sql }) => db.prepare(sql)));
    } catch (error) {
      const message = error.cause?.message ?? error.message;
      throw new Error(`Applying the migrations ${pending[0]} … ${pending[pending.length - 1]} failed (none was applied): ${message}`);
    }
    return pending;
  }
}

/** Runs `statements` (each one SQL statement) as one batch, one transaction; resolves each one's rows. */
export async function runBatch(db, statements, what) {
  try {
    return (await db.batch(statements.map((sql) => db.prepare(sql)))).map((result) => result.results ?? []);
  } catch (error) {
    throw new Error(`${what} failed: ${error.cause?.message ?? error.message}`);
  }
}
