import { count, eq, or, type SQL } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTableWithColumns } from 'drizzle-orm/sqlite-core';
import type { Database } from '../../db/client';
import { ApiError } from '../errors';
import { type AnyFilters, type ListQueryConfig, listPlan, type ParsedListQuery } from './list-query';

// biome-ignore lint/suspicious/noExplicitAny: any of drizzle's tables; only its columns named below are read.
type AnyTable = SQLiteTableWithColumns<any>;
type SluggedTable = AnyTable & { id: SQLiteColumn; slug: SQLiteColumn };

/** One page of a single table and its total, counted in SQL, in one D1 round trip. `extraConditions` narrow it (what the caller may see). */
export async function listTable<T, F extends AnyFilters>(
  db: Database,
  table: AnyTable,
  config: ListQueryConfig<F>,
  query: ParsedListQuery<F>,
  extraConditions: (SQL | undefined)[] = [],
): Promise<{ items: T[]; total: number }> {
  const plan = listPlan(config, query, extraConditions);
  const [items, totals] = await db.batch([
    db
      .select()
      .from(table)
      .where(plan.where)
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    db.select({ total: count() }).from(table).where(plan.matching),
  ]);
  return { items: items as T[], total: totals[0]!.total };
}

/** A row found by id or slug, or 404 naming the resource. */
export async function getByIdOrSlug<T>(db: Database, table: SluggedTable, idOrSlug: string, resource: string): Promise<T> {
  // A batch of one, so a public read's catalogue version can ride along (src/middleware/catalogue-cache.ts).
  const [[row]] = await db.batch([
    db
      .select()
      .from(table)
      .where(or(eq(table.id, idOrSlug), eq(table.slug, idOrSlug)))
      .limit(1),
  ]);
  if (!row) throw ApiError.notFound(resource, idOrSlug);
  return row as T;
}
