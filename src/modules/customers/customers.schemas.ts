import { z } from '@hono/zod-openapi';
import { USER_STATUSES, users } from '../../db/schema';
import { createInsertSchema, createUpdateSchema } from '../../lib/schemas';
import { Email, Password, PersonName, Phone, UserSchema } from '../users/schemas';

/** A customer is a user with the role `customer`; role and vendor say nothing about one, so they are not shown. */
export const CustomerSchema = UserSchema.omit({ role: true, vendorId: true })
  .extend({
    groupIds: z.array(z.string()).openapi({
      description: 'Ids of the customer groups it is in, sorted (`/api/customer-groups`; joined and left there). Their price lists price what it buys.',
      example: ['cgrp_01JD0000000000000000000000'],
    }),
  })
  .openapi('Customer');
export type Customer = z.infer<typeof CustomerSchema>;

/** The profile columns a customer body may carry, with their API rules (shared with sign-up). */
export const customerProfileFields = {
  email: Email,
  name: PersonName.nullable(),
  phone: Phone.nullable(),
  status: z.enum(USER_STATUSES).openapi({ description: 'A disabled customer cannot sign in, and its tokens stop working.' }),
  smsOptOut: z.boolean().openapi({ description: 'No SMS at all (shipping updates included). False by default.' }),
  marketingEmailOptOut: z.boolean().openapi({ description: 'No marketing email; order, payment, shipping and password-reset email still go. False by default.' }),
};
const profileColumns = { email: true, name: true, phone: true, status: true, smsOptOut: true, marketingEmailOptOut: true } as const;

export const CreateCustomerBody = createInsertSchema(users, customerProfileFields)
  .pick(profileColumns)
  .partial()
  .required({ email: true })
  .extend({ password: Password.optional().openapi({ description: 'Without one, the customer cannot sign in until a password is set.' }) })
  .strict()
  .openapi('CreateCustomer');

// Overrides given as schemas replace drizzle-zod's optional update columns, hence `.partial()`.
export const UpdateCustomerBody = createUpdateSchema(users, customerProfileFields)
  .pick(profileColumns)
  .partial()
  .extend({
    currentPassword: z
      .string()
      .min(1)
      .max(256)
      .optional()
      .openapi({
        format: 'password',
        description:
          "The account's current password: required when a signed-in customer changes its own `email` (422 on `currentPassword` when missing " +
          'or wrong), not needed from staff and ignored otherwise. Never stored or returned.',
      }),
  })
  .strict()
  .openapi('UpdateCustomer', { description: 'Fields to change. A customer may not change its own `status` (403).' });

/** A new token for the caller, given when the change retired the one it used (its own email). */
export const RenewedSessionSchema = z
  .object({
    token: z.string().openapi({ description: 'An HS256 JWT: send it as `Authorization: Bearer <token>` from now on.' }),
    expiresIn: z.int().openapi({ description: 'Seconds until the token expires.', example: 86400 }),
  })
  .openapi('RenewedSession', {
    description:
      'Only when a signed-in customer changed its own email: every token issued before, the one of that request included, stops working, ' +
      'and this one replaces it (as `POST /api/auth/password` does).',
  });

export const UpdatedCustomerSchema = CustomerSchema.extend({ session: RenewedSessionSchema.optional() }).openapi('UpdatedCustomer');

export type CreateCustomerInput = z.infer<typeof CreateCustomerBody>;
export type UpdateCustomerInput = z.infer<typeof UpdateCustomerBody>;
export type CustomerProfilePatch = Omit<UpdateCustomerInput, 'currentPassword'>;
