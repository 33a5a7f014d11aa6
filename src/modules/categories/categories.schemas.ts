import { z } from '@hono/zod-openapi';
import { categories } from '../../db/schema';
import { createInsertSchema, createSelectSchema, createUpdateSchema, Slug, Timestamp } from '../../lib/schemas';

export const CategorySchema = createSelectSchema(categories, { createdAt: Timestamp, updatedAt: Timestamp }).openapi('Category', {
  description: 'A node of the category tree; `parentId` is null at the top level.',
});
export type Category = z.infer<typeof CategorySchema>;

const fields = {
  name: z.string().trim().min(1).max(200),
  slug: Slug,
  description: z.string().max(5000).nullable(),
  parentId: z.string().min(1).max(100).nullable(),
  position: z.int().min(0).max(10_000),
};

export const CreateCategoryBody = createInsertSchema(categories, fields)
  .omit({ id: true, createdAt: true, updatedAt: true })
  .partial()
  .required({ name: true })
  .strict()
  .openapi('CreateCategory');
// Overrides given as schemas replace drizzle-zod's optional update columns, hence `.partial()`.
export const UpdateCategoryBody = createUpdateSchema(categories, fields)
  .omit({ id: true, createdAt: true, updatedAt: true })
  .partial()
  .strict()
  .openapi('UpdateCategory', { description: 'Fields to change. A category cannot become its own descendant.' });
export type CreateCategoryInput = z.infer<typeof CreateCategoryBody>;
export type UpdateCategoryInput = z.infer<typeof UpdateCategoryBody>;
