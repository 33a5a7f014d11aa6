import { sql } from 'drizzle-orm';
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
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
    /** The store-wide order events were written in (1, 2, 3, ... never reused), set by the insert's trigger (migrations/0061): the events API's cursor. */
    position: integer('position'),
    /** The order, product, customer, page, cart or gift card the event is about (its data's id), set by the trigger. */
    resourceId: text('resource_id'),
    /** 1, 2, 3, ... per resource in the order written, set by the trigger: a consumer drops an event older than one it has seen. */
    sequence: integer('sequence'),
  },
  (t) => [
    uniqueIndex('events_position_idx').on(t.position),
    index('events_resource_idx').on(t.resourceId, t.sequence),
    index('events_created_idx').on(t.createdAt),
    index('events_unpublished_idx').on(t.publishedAt, t.createdAt),
    // The last inventory.low of a variant, for the once-an-hour check of inventory_adjustments_apply (migrations/0024).
    index('events_inventory_low_variant_idx').on(sql`json_extract(${t.data}, '$.variantId')`, t.createdAt).where(sql`${t.type} = 'inventory.low'`),
  ],
);

export type EventRow = typeof events.$inferSelect;

/** The last `position` given to an event: one row, moved on by every insert into events (a counter, so a position is never given twice even when every event was pruned). */
export const eventPositions = sqliteTable('event_positions', {
  id: integer('id').primaryKey(),
  position: integer('position').notNull().default(0),
});
