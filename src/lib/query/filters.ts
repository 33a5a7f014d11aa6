import { z } from '@hono/zod-openapi';
import { eq, or, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { hasAtMostDecimals, MAX_MAJOR_AMOUNT, toMinor } from '../money';
import type { FilterSpec } from './list-query';
import { booleanQuery, numberQuery } from './typed';

/** Builders for the kinds of filter resources declare. Each parses a query string and yields SQL. */

function param<T>(schema: z.ZodType<T, string | undefined>, description: string, example?: string) {
  return schema.openapi({ description, ...(example ? { example } : {}) }) as z.ZodType<T, string | undefined>;
}

/** Exact match on one of a fixed set of values. */
export function enumFilter<const V extends readonly [string, ...string[]]>(column: SQLiteColumn, values: V, description: string): FilterSpec<V[number] | undefined> {
  return {
    schema: param(z.enum(values).optional(), `${description} One of: ${values.join(', ')}.`),
    where: (value) => eq(column, value),
  };
}

/** A reference to another resource by id or by slug. */
export function idOrSlugFilter(column: SQLiteColumn, target: { id: SQLiteColumn; slug: SQLiteColumn; table: string }, description: string): FilterSpec<string | undefined> {
  return {
    schema: param(z.string().min(1).max(200).optional(), description),
    where: (value) => sql`${column} IN (SELECT ${target.id} FROM ${sql.identifier(target.table)} WHERE ${or(eq(target.id, value), eq(target.slug, value))})`,
  };
}

/** Exact match on a text column. */
export function exactFilter(column: SQLiteColumn, description: string): FilterSpec<string | undefined> {
  return { schema: param(z.string().min(1).max(200).optional(), description), where: (value) => eq(column, value) };
}

/** Exact match on a whole-number column (`?number=1001`). */
export function integerFilter(column: SQLiteColumn, description: string, example: number): FilterSpec<number | undefined> {
  const message = `must be a whole number, like ${example}`;
  const schema = numberQuery(/^\d{1,15}$/, z.int({ error: message }).min(0, message).max(Number.MAX_SAFE_INTEGER, message))
    .optional()
    .openapi({ description, example });
  return { schema: schema as unknown as z.ZodType<number | undefined, string | undefined>, where: (value) => eq(column, value) };
}

/** An inclusive bound on a money column, given in major units (`19.99`); documented as a number. */
export function moneyBoundFilter(column: SQLiteColumn | SQL, bound: 'min' | 'max', description: string): FilterSpec<number | undefined> {
  const message = 'must be a non-negative amount with at most 2 decimals, like 19.99';
  const amount = z
    .number({ error: message })
    .min(0, message)
    .max(MAX_MAJOR_AMOUNT, message)
    .refine((value) => hasAtMostDecimals(value), message);
  const schema = numberQuery(/^\d+(\.\d+)?$/, amount)
    .optional()
    .transform((value) => (value === undefined ? undefined : toMinor(value)))
    .openapi({ description: `${description} At most 2 decimals.`, example: bound === 'min' ? 10 : 99.99 });
  return {
    schema: schema as unknown as z.ZodType<number | undefined, string | undefined>,
    where: (minor) => (bound === 'min' ? sql`${column} >= ${minor}` : sql`${column} <= ${minor}`),
  };
}

/** D1 refuses LIKE patterns over 50 bytes; two wildcards leave room for 48 bytes of text. */
export const MAX_SEARCH_BYTES = 48;

/** Case-insensitive substring search over several text columns (and extra conditions). */
export function searchFilter(columns: SQLiteColumn[], description: string, extra: (pattern: string) => SQL[] = () => []): FilterSpec<string | undefined> {
  const schema = z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined) return undefined;
      const text = raw.trim();
      if (!text) {
        ctx.addIssue({ code: 'custom', message: 'must not be empty' });
        return z.NEVER;
      }
      const escaped = text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
      if (new TextEncoder().encode(escaped).length > MAX_SEARCH_BYTES) {
        ctx.addIssue({ code: 'custom', message: `must be at most ${MAX_SEARCH_BYTES} bytes` });
        return z.NEVER;
      }
      return `%${escaped}%`;
    });
  return {
    schema: param(schema, description, 'shirt'),
    where: (pattern) => or(...columns.map((c) => sql`${c} LIKE ${pattern} ESCAPE '\\'`), ...extra(pattern)),
  };
}

/** `YYYY-MM-DD` that names a real calendar day, as the ISO timestamp of its start (UTC). */
const DayStart = z
  .string()
  .optional()
  .transform((raw, ctx) => {
    if (raw === undefined) return undefined;
    const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(raw);
    const day = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : undefined;
    if (!day || day.getUTCDate() !== Number(match![3]) || day.getUTCMonth() !== Number(match![2]) - 1) {
      ctx.addIssue({ code: 'custom', message: 'must be a date as YYYY-MM-DD, like 2026-01-31' });
      return z.NEVER;
    }
    return day.toISOString();
  });

// Timestamps are stored as ISO 8601 UTC text, which sorts as it compares, so day bounds are text bounds.

/** `created_after=D`: created at or after the start of day D (UTC). Reusable for any timestamp column. */
export function createdAfterFilter(column: SQLiteColumn, description = 'Created on or after this day (YYYY-MM-DD, UTC), inclusive.'): FilterSpec<string | undefined> {
  return { schema: DayStart.openapi({ description, example: '2026-01-01' }), where: (start) => sql`${column} >= ${start}` };
}

/** `created_before=D`: created before the start of day D (UTC), so D itself is excluded. */
export function createdBeforeFilter(column: SQLiteColumn, description = 'Created before this day (YYYY-MM-DD, UTC); the day itself is excluded.'): FilterSpec<string | undefined> {
  return { schema: DayStart.openapi({ description, example: '2026-02-01' }), where: (start) => sql`${column} < ${start}` };
}

/** `?enabled=true|false` on a boolean column, documented as a boolean. Anything else is 400, never silently ignored. */
export function booleanFilter(column: SQLiteColumn, description: string): FilterSpec<boolean | undefined> {
  const schema = booleanQuery('must be true or false')
    .optional()
    .openapi({ description: `${description} true or false.`, example: true }) as unknown as z.ZodType<boolean | undefined, string | undefined>;
  return { schema, where: (value) => eq(column, value) };
}

/** A moment: `YYYY-MM-DD` (the start of that day, UTC) or an ISO 8601 time with `Z` or an offset, as ISO text in UTC. */
const Instant = z
  .string()
  .optional()
  .transform((raw, ctx) => {
    if (raw === undefined) return undefined;
    if (/^\d{4}-\d{2}-\d{2}$/.test(raw)) {
      const day = DayStart.safeParse(raw);
      if (day.success) return day.data;
      ctx.addIssue({ code: 'custom', message: 'must be a real day, like 2026-01-31' });
      return z.NEVER;
    }
    const time = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})$/.test(raw) ? new Date(raw) : undefined;
    if (!time || Number.isNaN(time.getTime())) {
      ctx.addIssue({ code: 'custom', message: 'must be a day (YYYY-MM-DD) or a time with its offset, like 2026-01-31T09:30:00Z' });
      return z.NEVER;
    }
    return time.toISOString();
  });

/** `..._before=T`: the column is before moment T (a day's start, or a time). */
export function instantBeforeFilter(column: SQLiteColumn, description: string): FilterSpec<string | undefined> {
  return { schema: Instant.openapi({ description, example: '2026-11-25T09:30:00Z' }), where: (moment) => sql`${column} < ${moment}` };
}

/** `..._after=T`: the column is at or after moment T (a day's start, or a time). */
export function instantAfterFilter(column: SQLiteColumn, description: string): FilterSpec<string | undefined> {
  return { schema: Instant.openapi({ description, example: '2026-11-24T14:00:00Z' }), where: (moment) => sql`${column} >= ${moment}` };
}
