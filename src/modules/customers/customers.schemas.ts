import { z } from '@hono/zod-openapi';
import { USER_STATUSES, users } from '../../db/schema';
import { createInsertSchema, createUpdateSchema } from '../../lib/schemas';
import { Email, Password, PersonName, Phone, UserSchema } from '../users/users.schemas';

/** A customer is a user with the role `customer`; role and vendor say nothing about one, so they are not shown. */
export const CustomerSchema = UserSchema.omit({ role: true, vendorId: true }).openapi('Customer');
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
  .strict()
  .openapi('UpdateCustomer', { description: 'Fields to change. A customer may not change its own `status` (403).' });

export type CreateCustomerInput = z.infer<typeof CreateCustomerBody>;
export type UpdateCustomerInput = z.infer<typeof UpdateCustomerBody>;
