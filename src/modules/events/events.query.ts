import { z } from '@hono/zod-openapi';
import { eq, inArray, like, or, sql } from 'drizzle-orm';
import { events } from '../../db/schema';
import { EVENT_TYPES } from '../registry';
import { defineListQuery, exactFilter, fieldTreeFromSchema, type FilterSpec, instantAfterFilter, instantBeforeFilter } from '../../lib/query';
import { EventSchema } from './events.schemas';

const KNOWN: readonly string[] = EVENT_TYPES;
const PREFIXES = new Set(EVENT_TYPES.map((type) => type.split('.')[0]!));

/** `type=order.*,payment.refunded`: kinds, or every kind of a resource with `<resource>.*`; an unknown one is 400. */
const typeFilter: FilterSpec<string[] | undefined> = {
  schema: z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined) return undefined;
      const names = raw
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean);
      const unknown = names.filter((name) => !(KNOWN.includes(name) || (name.endsWith('.*') && PREFIXES.has(name.slice(0, -2)))));
      if (unknown.length || !names.length) {
        ctx.addIssue({
          code: 'custom',
          message: `unknown event kind(s) ${unknown.join(', ') || '(none given)'}: give kinds such as order.placed, or order.* for all of a resource's`,
        });
        return z.NEVER;
      }
      return names;
    })
    .openapi({ description: 'Kinds, comma-separated; `order.*` for every kind of orders.', example: 'order.*,payment.refunded' }) as never,
  where: (names) =>
    // `_` in a prefix (store_credit.*) is LIKE's any-one-character: the kinds are known, so it matches only its own.
    or(...names.map((name) => (name.endsWith('.*') ? like(events.type, `${name.slice(0, -1)}%`) : eq(events.type, name)))) ?? inArray(events.type, []),
};

/** `after=evt_…` / `before=evt_…`: events written after (before) that one, whatever the sort: a walk by them is stable while new events arrive. */
const cursorFilter = (direction: '>' | '<', description: string): FilterSpec<string | undefined> => ({
  schema: z.string().min(1).max(200).optional().openapi({ description, example: 'evt_01JD0000000000000000000000' }),
  where: (id) =>
    sql`${events.position} ${sql.raw(direction)} coalesce((SELECT e.position FROM ${events} AS e WHERE e.id = ${id}), ${direction === '>' ? sql`9223372036854775807` : sql`-1`})`,
});

export const eventListQuery = defineListQuery({
  resource: 'event',
  id: events.id,
  sortable: { position: events.position, timestamp: events.position },
  defaultSort: [{ field: 'position', direction: 'desc' }],
  selectable: fieldTreeFromSchema(EventSchema),
  filters: {
    type: typeFilter,
    resource: exactFilter(events.resourceId, 'The order, product, customer, page, cart or gift card the events are about.'),
    created_after: instantAfterFilter(events.createdAt, 'Written at or after this moment: a day (YYYY-MM-DD, UTC) or a time with its offset.'),
    created_before: instantBeforeFilter(events.createdAt, 'Written before this moment: a day (YYYY-MM-DD, UTC) or a time with its offset.'),
    after: cursorFilter('>', 'Only events written after this one (an event id): with `sort=position`, the next page of a catch-up walk, oldest first.'),
    before: cursorFilter('<', 'Only events written before this one (an event id): the next page of the default newest-first walk.'),
  },
});
