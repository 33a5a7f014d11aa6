import { expectedTriggers as expectedAuditTriggers } from '../audit-triggers';
import { CATALOGUE_VERSION_BUMPS } from './catalogue-version';
import { QUOTE_VERSION_BUMPS } from './quote-version';
import { keepsReportTotals, reportTotalsTriggers } from './report-totals';
import { triggerShape } from './trigger-sql';
import { bumpsAVersion, versionBumpTriggers } from './version-bumps';

/**
 * The domain triggers declared in TypeScript, by family: the migrations are generated from them
 * (`npm run db:triggers`, scripts/triggers.ts) and test/d1/declared-triggers.test.ts fails when the migrated
 * database holds one not exactly as declared, or a trigger of a family that is no longer declared.
 * Other triggers (write guards, derived counters, the search index) are written by hand in their
 * migration; schema.sql shows every trigger's live body, declared or not.
 */
export interface TriggerFamily {
  name: string;
  /** Where its triggers are declared. */
  declaredIn: string;
  /** Its triggers, by name: each one's CREATE TRIGGER statement. A function, so declarations may move or grow. */
  triggers(): Map<string, string>;
  /** Whether a trigger (by name and statement, as a migration left it) is of this family: one no longer declared is dropped. */
  owns(name: string, sql: string): boolean;
}

export const TRIGGER_FAMILIES: readonly TriggerFamily[] = [
  {
    name: 'audit',
    declaredIn: 'src/db/audit-triggers.ts',
    triggers: expectedAuditTriggers,
    owns: (name) => name.startsWith('audit_'),
  },
  {
    name: 'version bumps',
    declaredIn: 'src/db/triggers/catalogue-version.ts, src/db/triggers/quote-version.ts',
    triggers: () => versionBumpTriggers({ catalogue_version: CATALOGUE_VERSION_BUMPS, quote_version: QUOTE_VERSION_BUMPS }),
    owns: (_name, sql) => bumpsAVersion(sql),
  },
  {
    name: 'report totals',
    declaredIn: 'src/db/triggers/report-totals.ts',
    triggers: () => reportTotalsTriggers(),
    owns: (_name, sql) => keepsReportTotals(sql),
  },
];

export interface DeclaredTrigger {
  family: string;
  table: string;
  sql: string;
}

/**
 * Every declared trigger, by name. Each must be of its own family alone (so the generator would
 * drop it once it is no longer declared, and no other family would), and no name is declared twice.
 */
export function expectedTriggers(families: readonly TriggerFamily[] = TRIGGER_FAMILIES): Map<string, DeclaredTrigger> {
  const expected = new Map<string, DeclaredTrigger>();
  for (const family of families) {
    for (const [name, sql] of family.triggers()) {
      if (expected.has(name)) throw new Error(`the trigger ${name} is declared by ${expected.get(name)!.family} and ${family.name}`);
      const owners = families.filter((f) => f.owns(name, sql)).map((f) => f.name);
      if (owners.length !== 1 || owners[0] !== family.name) throw new Error(`the ${family.name} trigger ${name} is owned by ${owners.join(', ') || 'no family'}`);
      expected.set(name, { family: family.name, table: triggerShape(sql).table, sql });
    }
  }
  return expected;
}

/** The family a trigger (as a migration or the database has it) belongs to, if any. */
export const familyOf = (name: string, sql: string, families: readonly TriggerFamily[] = TRIGGER_FAMILIES) => families.find((f) => f.owns(name, sql));
