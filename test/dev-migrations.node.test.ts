import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM script without types
import { migrationStatements } from '../scripts/lib/local-d1.mjs';
// @ts-expect-error plain ESM script without types
import { describeAppliedMigrations } from '../scripts/lib/wrangler.mjs';

// `npm run dev` says what it did to the local database in one readable line (scripts/lib/wrangler.mjs).
describe('the migrations line of npm run dev', () => {
  it('names up to three migrations, and only the first and last of more', () => {
    const names = Array.from({ length: 45 }, (_, i) => `${String(i).padStart(4, '0')}_step_${i}.sql`);
    expect(describeAppliedMigrations(names)).toBe('Applied 45 D1 migrations to the local database (0000_step_0.sql … 0044_step_44.sql)');
    expect(describeAppliedMigrations(names.slice(0, 1))).toBe('Applied 1 D1 migration to the local database (0000_step_0.sql)');
    expect(describeAppliedMigrations(names.slice(0, 3))).toBe('Applied 3 D1 migrations to the local database (0000_step_0.sql, 0001_step_1.sql, 0002_step_2.sql)');
    expect(describeAppliedMigrations([])).toBe('Local D1 database is up to date');
  });
});

// `npm run dev` applies the migrations itself (scripts/lib/local-d1.mjs), splitting each file at
// drizzle-kit's `--> statement-breakpoint` markers rather than parsing SQL: that holds only while no
// piece holds two statements. A trigger's body (BEGIN ... END) may hold many.
describe('the migrations as npm run dev splits them', () => {
  const dir = new URL('../migrations/', import.meta.url);
  const files = readdirSync(dir).filter((f) => /^\d+_.*\.sql$/.test(f));

  /** The semicolons of a piece outside comments, quotes and trigger bodies, but the last. */
  const innerSemicolons = (piece: string) =>
    piece
      .replace(/--[^\n]*/g, '')
      .replace(/'(?:[^']|'')*'/g, "''")
      .replace(/\bBEGIN\b[\s\S]*?\bEND\b\s*;/gi, 'END;')
      .trim()
      .replace(/;$/, '')
      .split(';').length - 1;

  it('finds one statement in every piece of every migration', () => {
    expect(files.length).toBeGreaterThan(70);
    const doubled = files.flatMap((file) =>
      (migrationStatements(readFileSync(new URL(file, dir), 'utf8')) as string[]).filter((piece) => innerSemicolons(piece) > 0).map((piece) => `${file}: ${piece.slice(0, 80)}`),
    );
    expect(doubled).toEqual([]);
  });

  it('leaves out pieces that are only comments', () => {
    expect(migrationStatements('-- a note\nCREATE TABLE a (x);\n--> statement-breakpoint\n-- trailing words only\n')).toEqual(['-- a note\nCREATE TABLE a (x);']);
  });
});
