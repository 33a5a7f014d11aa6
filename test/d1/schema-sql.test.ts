import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import schemaFile from '../../schema.sql?raw';
import { SCHEMA_OBJECTS_SQL, type SchemaObject, schemaObjects, schemaSql, schemaStatement } from '../../src/db/schema-sql';

// schema.sql is the database after every migration (src/db/schema-sql.ts): the migrated test
// database, rendered the same way, must be exactly the file.

describe('schema.sql', () => {
  it('is the migrated database', async () => {
    const { results } = await env.DB.prepare(SCHEMA_OBJECTS_SQL).all<SchemaObject>();
    const objects = schemaObjects(results);
    expect(objects.filter((o) => o.type === 'trigger').length).toBeGreaterThan(200);
    const file = schemaFile.replace(/\r\n/g, '\n');
    const stale = objects.filter((o) => !file.includes(schemaStatement(o))).map((o) => `${o.type} ${o.name}`);
    const message = 'schema.sql is stale: run `npm run db:schema` and commit schema.sql';
    expect(stale, message).toEqual([]);
    expect(schemaSql(results) === file, message).toBe(true);
  });
});
