import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { expectedTriggers, familyOf, TRIGGER_FAMILIES } from '../../src/db/triggers';

// The declared triggers (src/db/triggers/) and the migrations cannot drift: the migrated database
// has every declared trigger exactly as declared, and no trigger of a family that is not declared.

const FIX = 'run `npm run db:triggers` (inside the migration lock) and commit the migration it writes';

describe('declared triggers', () => {
  it('are in the migrated database, each exactly as declared, and no undeclared trigger of their families is', async () => {
    const { results } = await env.DB.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").all<{ name: string; sql: string }>();
    const actual = new Map(results.map((r) => [r.name, r.sql]));
    const expected = expectedTriggers();
    const perFamily = Object.fromEntries(TRIGGER_FAMILIES.map((f) => [f.name, [...expected.values()].filter((t) => t.family === f.name).length]));
    expect(
      Object.values(perFamily).every((n) => n > 0),
      JSON.stringify(perFamily),
    ).toBe(true);

    const stale = [...expected].filter(([name, { sql }]) => actual.get(name) !== sql).map(([name]) => `${name} (${actual.has(name) ? 'differs' : 'missing'})`);
    expect(stale, FIX).toEqual([]);
    const undeclared = [...actual].filter(([name, sql]) => !expected.has(name) && familyOf(name, sql)).map(([name, sql]) => `${name} (${familyOf(name, sql)!.name})`);
    expect(undeclared, FIX).toEqual([]);
  });
});
