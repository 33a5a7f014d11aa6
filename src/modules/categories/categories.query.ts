import { z } from '@hono/zod-openapi';
import { isNull, sql } from 'drizzle-orm';
import { categories } from '../../db/schema';
import { defineListQuery, fieldTreeFromSchema, searchFilter } from '../../lib/query';
import { CategorySchema } from './categories.schemas';

export const categoryListQuery = defineListQuery({
  resource: 'category',
  id: categories.id,
  sortable: { position: categories.position, name: categories.name, createdAt: categories.createdAt, updatedAt: categories.updatedAt, id: categories.id },
  defaultSort: [
    { field: 'position', direction: 'asc' },
    { field: 'name', direction: 'asc' },
  ],
  selectable: fieldTreeFromSchema(CategorySchema),
  filters: {
    parent: {
      schema: z.string().min(1).max(200).optional().openapi({ description: 'Children of this category (id or slug); `root` for top-level categories.' }),
      where: (parent: string) =>
        parent === 'root' ? isNull(categories.parentId) : sql`${categories.parentId} IN (SELECT id FROM ${categories} WHERE id = ${parent} OR slug = ${parent})`,
    },
    q: searchFilter([categories.name, categories.slug], 'Search in name and slug, case-insensitive.'),
  },
});
