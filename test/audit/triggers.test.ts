import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { AUDITED_TABLES, expectedTriggers, NOT_AUDITED, schemaTables } from '../../src/db/audit-triggers';

// The audit log is only as complete as its triggers: every table is audited or says why not, and
// the triggers in the migrated database are the ones the current schema calls for.

const normalize = (sql: string) => sql.replace(/\s+/g, ' ').trim();

describe('audit triggers', () => {
  it('classifies every table of the schema as audited or not, with a reason', () => {
    const unclassified = [...schemaTables().keys()].filter((name) => !(name in AUDITED_TABLES) && !(name in NOT_AUDITED));
    expect(unclassified, 'add each to AUDITED_TABLES or NOT_AUDITED in src/db/audit-triggers.ts').toEqual([]);
    expect(Object.keys(AUDITED_TABLES).filter((name) => name in NOT_AUDITED)).toEqual([]);
  });

  it('writes no CASE ... END inside a trigger, which wrangler d1 migrations apply would take for the end of the trigger', () => {
    const withCase = [...expectedTriggers()].filter(([, sql]) => /\bCASE\b/i.test(sql)).map(([name]) => name);
    expect(withCase).toEqual([]);
  });

  it('has, after the migrations, exactly the triggers the schema calls for', async () => {
    const { results } = await env.DB.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'audit\\_%' ESCAPE '\\'").all<{ name: string; sql: string }>();
    const actual = new Map(results.map((r) => [r.name, normalize(r.sql)]));
    const stale = [...expectedTriggers()].filter(([name, sql]) => actual.get(name) !== normalize(sql)).map(([name]) => name);
    expect(stale, 'run `npm run db:audit-triggers` (inside the migration lock) and commit the migration it writes').toEqual([]);
    expect([...actual.keys()].filter((name) => !expectedTriggers().has(name))).toEqual([]);
  });
});
