import { z } from '@hono/zod-openapi';
import { eq } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { FilterSpec } from '../../lib/query';

/** `?enabled=true|false` on a boolean column. Anything else is 400, never silently ignored. */
export function booleanFilter(column: SQLiteColumn, description: string): FilterSpec<boolean | undefined> {
  const schema = z
    .enum(['true', 'false'])
    .optional()
    .transform((raw) => (raw === undefined ? undefined : raw === 'true'))
    .openapi({ description: `${description} true or false.`, example: 'true' }) as unknown as z.ZodType<boolean | undefined, string | undefined>;
  return { schema, where: (value) => eq(column, value) };
}
