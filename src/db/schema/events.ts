import { sql } from 'drizzle-orm';
import { index, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { now } from './columns';

// The outbox of domain events (src/lib/events.ts).

export const events = sqliteTable(
  'events',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    data: text('data', { mode: 'json' }).$type<Record<string, unknown>>().notNull(),
    createdAt: text('created_at').notNull().default(now),
    publishedAt: text('published_at'),
  },
  (t) => [
    index('events_unpublished_idx').on(t.publishedAt, t.createdAt),
    // The last inventory.low of a variant, for the once-an-hour check of inventory_adjustments_apply (migrations/0024).
    index('events_inventory_low_variant_idx').on(sql`json_extract(${t.data}, '$.variantId')`, t.createdAt).where(sql`${t.type} = 'inventory.low'`),
  ],
);

export type EventRow = typeof events.$inferSelect;
