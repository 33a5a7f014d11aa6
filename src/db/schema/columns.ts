import { sql } from 'drizzle-orm';
import { text } from 'drizzle-orm/sqlite-core';

/** The column default of every timestamp: ISO 8601 UTC text with milliseconds, so they sort as they compare. */
export const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`;

export const timestamps = {
  createdAt: text('created_at').notNull().default(now),
  updatedAt: text('updated_at').notNull().default(now),
};
