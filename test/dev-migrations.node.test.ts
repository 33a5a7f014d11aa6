import { describe, expect, it } from 'vitest';
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
