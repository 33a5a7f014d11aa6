import { asc, desc, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { toCamelCase } from './names';

export type SortDirection = 'asc' | 'desc';
export interface SortKey {
  field: string;
  direction: SortDirection;
}

export class SortSyntaxError extends Error {}

/** Parses `created_at:desc,price` (direction defaults to asc) against a whitelist of fields. */
export function parseSort(input: string, sortable: readonly string[]): SortKey[] {
  const keys: SortKey[] = [];
  for (const part of input.split(',')) {
    const [rawField = '', rawDirection, ...rest] = part.trim().split(':');
    if (!rawField) throw new SortSyntaxError('empty sort key');
    if (rest.length) throw new SortSyntaxError(`'${part}' is not of the form field:direction`);
    const field = toCamelCase(rawField);
    if (!sortable.includes(field)) {
      throw new SortSyntaxError(`cannot sort on '${rawField}'; sortable: ${sortable.join(', ')}`);
    }
    const direction = (rawDirection ?? 'asc').toLowerCase();
    if (direction !== 'asc' && direction !== 'desc') {
      throw new SortSyntaxError(`direction of '${rawField}' must be asc or desc, not '${rawDirection}'`);
    }
    if (keys.some((k) => k.field === field)) throw new SortSyntaxError(`'${rawField}' is given more than once`);
    keys.push({ field, direction });
  }
  return keys;
}

/**
 * ORDER BY terms for whitelisted keys, always ending on the id so that pages are stable. The id runs
 * in the direction of the last key, so `created_at DESC, id DESC` walks an index on (created_at, id)
 * backwards and reads only the page (an ascending id after a descending key would sort the page).
 * The columns may be SQL (a subquery's columns by name); the id is recognised by identity.
 */
export function orderByFor(keys: SortKey[], columns: Record<string, SQLiteColumn | SQL>, id: SQLiteColumn | SQL): SQL[] {
  const terms = keys.map((k) => (k.direction === 'asc' ? asc(columns[k.field]!) : desc(columns[k.field]!)));
  const last = keys[keys.length - 1]?.direction ?? 'asc';
  if (!keys.some((k) => columns[k.field] === id)) terms.push(last === 'asc' ? asc(id) : desc(id));
  return terms;
}
