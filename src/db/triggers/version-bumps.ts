import type { TriggerEvent } from './trigger-sql';

/**
 * Version rows bumped by triggers: one row each, set to a random 53-bit number (exact as a
 * JavaScript number; random, not a counter, so a database restored to an earlier point never shows
 * an old number with other contents: migrations/0015). Isolates keep what they read per version
 * and trust it while the version holds, so a table whose write would change what they kept must
 * bump it, in the write's own transaction, whoever writes.
 */
export type VersionRow = 'catalogue_version' | 'quote_version';

/** One trigger's worth of a table's writes that bump a version. */
export interface Bump {
  on: TriggerEvent;
  /** `UPDATE OF` these columns only (the others never change what is kept). */
  of?: readonly string[];
  /** A condition on OLD/NEW, for a change that matters only in some cases. */
  when?: string;
  /** The trigger name's last part: the event in lower case unless given ('' for none). */
  suffix?: string;
}

export interface VersionBumps {
  /** Why writes of the table change what is kept at this version. */
  why: string;
  bumps: readonly Bump[];
  /**
   * Bumped with the other version by one trigger per bump (`<table>_bump_versions_<suffix>`):
   * declared alike for both versions (the generator refuses them unlike).
   */
  withOtherVersion?: true;
}

/** A bump on every insert, update and delete. */
export const EVERY_WRITE: readonly Bump[] = [{ on: 'INSERT' }, { on: 'UPDATE' }, { on: 'DELETE' }];

const KIND: Record<VersionRow, string> = { catalogue_version: 'catalogue', quote_version: 'quote' };

const bumpStatement = (version: VersionRow) => `  UPDATE \`${version}\` SET \`version\` = (random() & 9007199254740991) WHERE \`id\` = 1;`;
const columnList = (columns: readonly string[]) => columns.map((c) => `\`${c}\``).join(', ');

/** The CREATE TRIGGER statement of one bump of `versions` on writes to `table`. */
export function bumpTrigger(table: string, bump: Bump, versions: readonly VersionRow[]): { name: string; sql: string } {
  const kind = versions.length > 1 ? 'versions' : KIND[versions[0]!];
  const suffix = bump.suffix ?? bump.on.toLowerCase();
  const name = `${table}_bump_${kind}${suffix ? `_${suffix}` : ''}`;
  const event = bump.of ? `${bump.on} OF ${columnList(bump.of)}` : bump.on;
  const when = bump.when ? `\nWHEN ${bump.when}` : '';
  return { name, sql: `CREATE TRIGGER \`${name}\` AFTER ${event} ON \`${table}\`${when}\nBEGIN\n${versions.map(bumpStatement).join('\n')}\nEND` };
}

const sameBumps = (a: readonly Bump[], b: readonly Bump[]) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The bump triggers of both versions, by name. A table bumping both versions `withOtherVersion`
 * gets one trigger per bump that updates both rows, quote_version first (as migration 0062 wrote them).
 */
export function versionBumpTriggers(declared: Record<VersionRow, Record<string, VersionBumps>>): Map<string, string> {
  const triggers = new Map<string, string>();
  const add = ({ name, sql }: { name: string; sql: string }) => {
    if (triggers.has(name)) throw new Error(`two version bumps are named ${name}: give one a suffix`);
    triggers.set(name, sql);
  };
  for (const version of ['catalogue_version', 'quote_version'] as const) {
    const other = declared[version === 'quote_version' ? 'catalogue_version' : 'quote_version'];
    for (const [table, entry] of Object.entries(declared[version])) {
      if (!entry.withOtherVersion) {
        for (const bump of entry.bumps) add(bumpTrigger(table, bump, [version]));
        continue;
      }
      const pair = other[table];
      if (!pair?.withOtherVersion || !sameBumps(entry.bumps, pair.bumps)) {
        throw new Error(`${table} bumps both versions by one trigger: declare it withOtherVersion, with the same bumps, for both`);
      }
      // Made once, on the quote side.
      if (version === 'quote_version') for (const bump of entry.bumps) add(bumpTrigger(table, bump, ['quote_version', 'catalogue_version']));
    }
  }
  return triggers;
}

/** Whether a trigger (as a migration left it) bumps a version: the generator drops those no longer declared. */
export const bumpsAVersion = (sql: string) => /UPDATE\s+`?(catalogue_version|quote_version)`?\s+SET/i.test(sql);
