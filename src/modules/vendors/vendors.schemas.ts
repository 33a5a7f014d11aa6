import { z } from '@hono/zod-openapi';
import { VENDOR_STATUSES, vendors } from '../../db/schema';
import { createInsertSchema, createSelectSchema, createUpdateSchema, Slug, Timestamp } from '../../lib/schemas';

export const VendorSchema = createSelectSchema(vendors, {
  status: z.enum(VENDOR_STATUSES).openapi({ description: '`suspended` marks a vendor the store has stopped working with: its users are refused (403) until it is active again.' }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}).openapi('Vendor');
export type Vendor = z.infer<typeof VendorSchema>;

const fields = {
  name: z.string().trim().min(1).max(200),
  slug: Slug,
  email: z.email().max(254).nullable(),
  description: z.string().max(5000).nullable(),
  status: z.enum(VENDOR_STATUSES),
};

export const CreateVendorBody = createInsertSchema(vendors, fields)
  .omit({ id: true, createdAt: true, updatedAt: true })
  .partial()
  .required({ name: true })
  .strict()
  .openapi('CreateVendor');

// Overrides given as schemas replace drizzle-zod's optional update columns, hence `.partial()`.
export const UpdateVendorBody = createUpdateSchema(vendors, fields).omit({ id: true, createdAt: true, updatedAt: true }).partial().strict().openapi('UpdateVendor');

export type CreateVendorInput = z.infer<typeof CreateVendorBody>;
export type UpdateVendorInput = z.infer<typeof UpdateVendorBody>;
