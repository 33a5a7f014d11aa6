/**
 * What a CREATE TRIGGER statement says about itself, read from its text: the generator
 * (scripts/triggers.ts) checks each declared trigger is on the table it is declared for, and
 * test/d1/quote-version-inputs.test.ts reads which tables' writes bump quote_version from
 * sqlite_master, not from the declarations.
 */
export type TriggerEvent = 'INSERT' | 'UPDATE' | 'DELETE';

export interface TriggerShape {
  name: string;
  timing: 'BEFORE' | 'AFTER' | 'INSTEAD OF';
  event: TriggerEvent;
  /** `UPDATE OF` these columns only; null: any update (or not an update trigger). */
  columns: string[] | null;
  table: string;
  /** The statements between BEGIN and END. */
  body: string;
}

const IDENTIFIER = '(?:`[^`]+`|"[^"]+"|\\w+)';
const SHAPE = new RegExp(
  `^CREATE\\s+TRIGGER\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?(${IDENTIFIER})\\s+(BEFORE|AFTER|INSTEAD\\s+OF)?\\s*(INSERT|UPDATE|DELETE)(?:\\s+OF\\s+(${IDENTIFIER}(?:\\s*,\\s*${IDENTIFIER})*))?\\s+ON\\s+(${IDENTIFIER})[\\s\\S]*?\\bBEGIN\\b([\\s\\S]*)\\bEND\\s*;?\\s*$`,
  'i',
);

const unquote = (identifier: string) => identifier.replace(/^[`"]|[`"]$/g, '');

/** The shape of one CREATE TRIGGER statement (as written in a migration or kept in sqlite_master). */
export function triggerShape(sql: string): TriggerShape {
  const match = SHAPE.exec(sql.trim());
  if (!match) throw new Error(`not a CREATE TRIGGER statement: ${sql.slice(0, 120)}`);
  const [, name, timing, event, columns, table, body] = match;
  return {
    name: unquote(name!),
    timing: (timing?.toUpperCase().replace(/\s+/, ' ') ?? 'BEFORE') as TriggerShape['timing'],
    event: event!.toUpperCase() as TriggerEvent,
    columns: columns ? columns.split(',').map((c) => unquote(c.trim())) : null,
    table: unquote(table!),
    body: body!.trim(),
  };
}

/** The name a CREATE TRIGGER statement gives its trigger. */
export const triggerNameOf = (sql: string) => triggerShape(sql).name;
