// `npm run db:schema`: writes schema.sql, the database after every migration (src/db/schema-sql.ts),
// from a scratch local database it migrates as `npm run dev` does (scripts/lib/local-d1.mjs) and
// deletes. Run it after adding a migration and commit schema.sql with it: test/d1/schema-sql.test.ts
// fails until then.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { SCHEMA_OBJECTS_SQL, type SchemaObject, schemaSql } from '../src/db/schema-sql';
import { applyMigrations, withLocalD1 } from './lib/local-d1.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
export const SCHEMA_FILE = path.join(ROOT, 'schema.sql');

/** Migrates a scratch database, writes schema.sql from it, and says whether the file changed. */
export async function writeSchemaSql(): Promise<boolean> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'store-api-schema-'));
  try {
    const objects = await withLocalD1(
      async (db: D1Database) => {
        await applyMigrations(db);
        return (await db.prepare(SCHEMA_OBJECTS_SQL).all<SchemaObject>()).results;
      },
      { persistTo: scratch },
    );
    const text = schemaSql(objects);
    let before: string | undefined;
    try {
      before = readFileSync(SCHEMA_FILE, 'utf8');
    } catch {}
    writeFileSync(SCHEMA_FILE, text);
    return before !== text;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const changed = await writeSchemaSql();
  console.log(changed ? `Wrote ${path.relative(process.cwd(), SCHEMA_FILE)}` : 'schema.sql is current; nothing to do.');
}
