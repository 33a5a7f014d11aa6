import { z } from '@hono/zod-openapi';
import { customerGroups } from '../../db/schema';
import { createInsertSchema, createSelectSchema, createUpdateSchema, Timestamp } from '../../lib/schemas';

/** Most customers one request adds to a group: D1 binds at most 100 parameters per statement. */
export const MAX_MEMBERS_PER_REQUEST = 30;

export const CustomerGroupSchema = createSelectSchema(customerGroups, { createdAt: Timestamp, updatedAt: Timestamp })
  .extend({ memberCount: z.int().openapi({ description: 'Customers in the group.', example: 12 }) })
  .openapi('CustomerGroup', {
    description:
      'A set of customers (wholesale, VIP) that price lists (`/api/price-lists`) and promotions are for. A customer may be in several groups (`groupIds` of a customer).',
  });
export type CustomerGroup = z.infer<typeof CustomerGroupSchema>;

const fields = {
  name: z.string().trim().min(1).max(100).openapi({ description: 'Unique, compared exactly.', example: 'Wholesale' }),
  description: z.string().trim().max(500).nullable().openapi({ example: 'Trade customers with net-30 terms' }),
};
const serverColumns = { id: true, createdAt: true, updatedAt: true } as const;

export const CreateCustomerGroupBody = createInsertSchema(customerGroups, fields).omit(serverColumns).partial({ description: true }).strict().openapi('CreateCustomerGroup');

// Overrides given as schemas replace drizzle-zod's optional update columns, hence `.partial()`.
export const UpdateCustomerGroupBody = createUpdateSchema(customerGroups, fields).omit(serverColumns).partial().strict().openapi('UpdateCustomerGroup');

export const AddMembersBody = z
  .strictObject({
    customerIds: z
      .array(z.string().min(1).max(200))
      .min(1)
      .max(MAX_MEMBERS_PER_REQUEST)
      .transform((ids) => [...new Set(ids)])
      .openapi({
        description: `Ids of customers to add, at most ${MAX_MEMBERS_PER_REQUEST}; those already in the group stay as they are.`,
        example: ['user_01JD0000000000000000000000'],
      }),
  })
  .openapi('AddCustomerGroupMembers');

export const MemberParams = z.object({
  id: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'id', in: 'path' }, example: 'cgrp_01JD0000000000000000000000' }),
  customerId: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'customerId', in: 'path' }, example: 'user_01JD0000000000000000000000' }),
});

export type CreateCustomerGroupInput = z.infer<typeof CreateCustomerGroupBody>;
export type UpdateCustomerGroupInput = z.infer<typeof UpdateCustomerGroupBody>;
