import { z } from '@hono/zod-openapi';
import { sql } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { USER_STATUSES, users } from '../../db/schema';
import { defineListQuery, enumFilter, type FilterSpec, fieldTreeFromSchema, searchFilter } from '../../lib/query';
import { CustomerSchema } from './customers.schemas';

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

export const customerListQuery = defineListQuery({
  resource: 'customer',
  id: users.id,
  sortable: { createdAt: users.createdAt, name: users.name, email: users.email, id: users.id },
  defaultSort: [{ field: 'createdAt', direction: 'desc' }],
  selectable: fieldTreeFromSchema(CustomerSchema),
  filters: {
    q: searchFilter([users.name, users.email], 'Search in name and email, case-insensitive.'),
    status: enumFilter(users.status, USER_STATUSES, 'Account status.'),
    created_after: createdAfterFilter(users.createdAt),
    created_before: createdBeforeFilter(users.createdAt),
  },
});
