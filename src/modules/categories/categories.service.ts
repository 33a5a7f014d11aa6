import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { categories } from '../../db/schema';
import { withUniqueConflicts } from '../../lib/db-errors';
import { ApiError } from '../../lib/errors';
import { ID_PREFIX, newId } from '../../lib/ids';
import { getByIdOrSlug, listTable, type ParsedListQuery } from '../../lib/query';
import { uniqueSlug } from '../../lib/slug';
import { categoryListQuery } from './categories.query';
export type { Category } from './categories.schemas';
import type { Category, CreateCategoryInput, UpdateCategoryInput } from './categories.schemas';

const UNIQUE_FIELDS = { 'categories.slug': 'slug' };

export function listCategories(db: Database, query: ParsedListQuery<typeof categoryListQuery.filters>) {
  return listTable<Category, typeof categoryListQuery.filters>(db, categories, categoryListQuery, query);
}

export function getCategory(db: Database, idOrSlug: string): Promise<Category> {
  return getByIdOrSlug<Category>(db, categories, idOrSlug, 'Category');
}

/** The ids of a category and all its ancestors, nearest first. */
async function lineage(db: Database, id: string): Promise<string[]> {
  const rows = await db.all<{ id: string }>(sql`
    WITH RECURSIVE up(id, parent_id) AS (
      SELECT id, parent_id FROM ${categories} WHERE id = ${id}
      UNION SELECT c.id, c.parent_id FROM ${categories} c JOIN up ON c.id = up.parent_id
    )
    SELECT id FROM up`);
  return rows.map((r) => r.id);
}

async function checkParent(db: Database, parentId: string | null | undefined, self?: string) {
  if (!parentId) return;
  const ancestors = await lineage(db, parentId);
  if (!ancestors.length) throw ApiError.validation([{ field: 'parentId', problem: `no category '${parentId}'`, code: 'not_found' }]);
  if (self && ancestors.includes(self)) {
    throw ApiError.validation([{ field: 'parentId', problem: 'a category cannot be moved under itself or its descendants' }]);
  }
}

export async function createCategory(db: Database, input: CreateCategoryInput, now = new Date()): Promise<Category> {
  const ts = now.toISOString();
  await checkParent(db, input.parentId);
  const row: Category = {
    id: newId(ID_PREFIX.category, now.getTime()),
    name: input.name,
    slug: input.slug ?? (await uniqueSlug(db, categories, categories.slug, input.name)),
    description: input.description ?? null,
    parentId: input.parentId ?? null,
    position: input.position ?? 0,
    createdAt: ts,
    updatedAt: ts,
  };
  await withUniqueConflicts(UNIQUE_FIELDS, () => db.insert(categories).values(row));
  return row;
}

export async function updateCategory(db: Database, id: string, patch: UpdateCategoryInput, now = new Date()): Promise<Category> {
  const current = await getCategory(db, id);
  if (Object.keys(patch).length === 0) return current;
  await checkParent(db, patch.parentId, current.id);
  const set = { ...patch, updatedAt: now.toISOString() };
  await withUniqueConflicts(UNIQUE_FIELDS, () => db.update(categories).set(set).where(eq(categories.id, current.id)));
  return { ...current, ...set };
}

/** A category with sub-categories cannot be deleted; its products simply leave it. */
export async function deleteCategory(db: Database, id: string): Promise<void> {
  const current = await getCategory(db, id);
  const child = await db.query.categories.findFirst({ columns: { id: true }, where: eq(categories.parentId, current.id) });
  if (child) throw ApiError.conflict('This category has sub-categories: move or delete them first');
  await db.delete(categories).where(eq(categories.id, current.id));
}
