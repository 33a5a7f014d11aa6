import { z } from '@hono/zod-openapi';
import { roles } from '../../db/schema';
import { Permissions } from '../../lib/schemas';
import { createInsertSchema, createSelectSchema, createUpdateSchema, Timestamp } from '../../lib/schemas';

export const RoleSchema = createSelectSchema(roles, {
  permissions: z.array(z.string()),
  createdAt: Timestamp,
  updatedAt: Timestamp,
}).openapi('Role', { description: 'A role; built-in roles (admin, vendor, customer) have their name as id and cannot be changed or deleted.' });
export type Role = z.infer<typeof RoleSchema>;

const fields = {
  name: z.string().trim().min(1).max(100).openapi({ example: 'catalogue-editor' }),
  description: z.string().trim().max(1000).nullable(),
  permissions: Permissions,
};

export const CreateRoleBody = createInsertSchema(roles, fields)
  .pick({ name: true, description: true, permissions: true })
  .partial({ description: true })
  .strict()
  .openapi('CreateRole');

// Overrides given as schemas replace drizzle-zod's optional update columns, hence `.partial()`.
export const UpdateRoleBody = createUpdateSchema(roles, fields).pick({ name: true, description: true, permissions: true }).partial().strict().openapi('UpdateRole');

export type CreateRoleInput = z.infer<typeof CreateRoleBody>;
export type UpdateRoleInput = z.infer<typeof UpdateRoleBody>;
