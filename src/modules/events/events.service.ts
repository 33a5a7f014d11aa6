import { and, count, eq, inArray } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { events } from '../../db/schema';
import type { Principal } from '../../lib/access';
import { ApiError } from '../../lib/errors';
import { listPlan, type ParsedListQuery } from '../../lib/query';
import { eventObject } from '../../webhooks/payload';
import { eventCondition, vendorView } from './events.access';
import type { eventListQuery } from './events.query';
import type { StoreEvent } from './events.schemas';

const toEvent = (principal: Principal) => (row: typeof events.$inferSelect) => vendorView(principal, eventObject(row) as StoreEvent);

/** A page of the events `principal` reads, and how many match (after a cursor: how many are left of the walk). */
export async function listEvents(db: Database, principal: Principal, query: ParsedListQuery<typeof eventListQuery.filters>, config: typeof eventListQuery) {
  const plan = listPlan(config, query, [eventCondition(principal)]);
  const cursors = [query.filters.after, query.filters.before].filter((id): id is string => id !== undefined);
  const [rows, totals, found] = await db.batch([
    db
      .select()
      .from(events)
      .where(plan.where)
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    db.select({ total: count() }).from(events).where(plan.matching),
    db
      .select({ id: events.id })
      .from(events)
      .where(inArray(events.id, cursors.length ? cursors : [''])),
  ]);
  // A cursor that names no event (mistyped, or pruned after EVENT_RETENTION_DAYS) would walk nowhere and look caught up: say so.
  const missing = cursors.find((id) => !found.some((row) => row.id === id));
  if (missing) {
    const field = missing === query.filters.after ? 'after' : 'before';
    throw ApiError.badParameter(field, `no event '${missing}' is kept (never written, or older than EVENT_RETENTION_DAYS): start from created_after instead`, 'not_found');
  }
  return { items: rows.map(toEvent(principal)), total: totals[0]!.total };
}

/** An event `principal` reads, as its deliveries carried it; 404 otherwise (pruned included). */
export async function getEvent(db: Database, principal: Principal, id: string): Promise<StoreEvent> {
  const [row] = await db
    .select()
    .from(events)
    .where(and(eq(events.id, id), eventCondition(principal)));
  if (!row) throw ApiError.notFound('Event', id);
  return toEvent(principal)(row);
}
