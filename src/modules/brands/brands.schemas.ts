import { z } from '@hono/zod-openapi';
import { brands } from '../../db/schema';
import { createInsertSchema, createSelectSchema, createUpdateSchema, Slug, Timestamp } from '../../lib/schemas';

export const BrandSchema = createSelectSchema(brands, { createdAt: Timestamp, updatedAt: Timestamp }).openapi('Brand');
export type Brand = z.infer<typeof BrandSchema>;

const fields = {
  name: z.string().trim().min(1).max(200),
  slug: Slug,
  description: z.string().max(5000).nullable(),
  logoUrl: z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .nullable(),
};

export const CreateBrandBody = createInsertSchema(brands, fields)
  .omit({ id: true, createdAt: true, updatedAt: true })
  .partial()
  .required({ name: true })
  .strict()
  .openapi('CreateBrand');
// Overrides given as schemas replace drizzle-zod's optional update columns, hence `.partial()`.
export const UpdateBrandBody = createUpdateSchema(brands, fields).omit({ id: true, createdAt: true, updatedAt: true }).partial().strict().openapi('UpdateBrand');
export type CreateBrandInput = z.infer<typeof CreateBrandBody>;
export type UpdateBrandInput = z.infer<typeof UpdateBrandBody>;
