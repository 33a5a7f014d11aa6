import { z } from '@hono/zod-openapi';
import { USER_STATUSES, users } from '../../db/schema';
import { MIN_PASSWORD_LENGTH } from '../../lib/password';
import { normalisePhone } from '../../lib/phone';
import { createInsertSchema, createSelectSchema, createUpdateSchema, Timestamp } from '../../lib/schemas';

/** Shapes shared by everything that reads or writes the users table (auth, customers, admin and vendor users). */

export const Email = z
  .email()
  .max(254)
  .transform((email) => email.trim().toLowerCase())
  .openapi({ example: 'ada@example.com', description: 'Compared case-insensitively; stored in lowercase.' });

export const Password = z
  .string()
  .min(MIN_PASSWORD_LENGTH, `must be at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(256)
  .openapi({ format: 'password', example: 'correct horse battery' });

export const PersonName = z.string().trim().min(1).max(200);
const PHONE_DESCRIPTION =
  'Stored and returned without spaces, brackets or dashes (`+49 30 1234567` becomes `+49301234567`): the number SMS are sent to, as you read it back. ' +
  'Start it with + and the country code for SMS to reach it.';
export const Phone = z
  .string()
  .trim()
  .regex(/^\+?[0-9 ()-]{5,30}$/, 'must be a phone number, like +1 555 0100')
  // The characters alone would let '-----' through, stored as typed since nothing is left to send to.
  .refine((phone) => (phone.match(/[0-9]/g)?.length ?? 0) >= 5, 'must be a phone number, like +1 555 0100')
  .overwrite((phone) => normalisePhone(phone) ?? phone)
  .openapi({ example: '+15550100', description: PHONE_DESCRIPTION });

/** A user as the API shows it: never the password hash or the token version. */
export const UserSchema = createSelectSchema(users, {
  createdAt: Timestamp,
  updatedAt: Timestamp,
  lastLoginAt: Timestamp.nullable(),
  phone: z.string().nullable().openapi({ example: '+15550100', description: PHONE_DESCRIPTION }),
})
  .omit({ passwordHash: true, tokenVersion: true, roleId: true })
  .extend({ role: z.string().openapi({ description: 'The id of the role: admin, vendor, customer or a custom role.', example: 'customer' }) })
  .openapi('User');
export type User = z.infer<typeof UserSchema>;

// ---------------------------------------------------------------------------------------------
// Staff users at /api/users: admins, vendor users and custom roles (customers live at /api/customers).

const RoleRef = z.string().trim().min(1).max(100).openapi({ description: 'Role id (or a built-in role name): any role but customer.', example: 'vendor' });
const VendorRef = z.string().min(1).max(100).nullable().openapi({ description: "The user's vendor: required for role vendor, refused for other roles." });
const staffFields = { email: Email, name: PersonName.nullable(), phone: Phone.nullable(), vendorId: VendorRef, status: z.enum(USER_STATUSES) };

export const CreateStaffUserBody = createInsertSchema(users, staffFields)
  .pick({ email: true, name: true, phone: true, vendorId: true })
  .partial({ name: true, phone: true, vendorId: true })
  .extend({ password: Password, role: RoleRef })
  .strict()
  .openapi('CreateStaffUser');

export const UpdateStaffUserBody = createUpdateSchema(users, staffFields)
  .pick({ name: true, phone: true, vendorId: true, status: true })
  .extend({ role: RoleRef, password: Password })
  .partial()
  .strict()
  .openapi('UpdateStaffUser', {
    description:
      'Fields to change. A new `password` signs the user out everywhere (its older tokens stop working); `status: disabled` refuses its tokens from the next request, for good (re-enabling does not revive them).',
  });

export type CreateStaffUserInput = z.infer<typeof CreateStaffUserBody>;
export type UpdateStaffUserInput = z.infer<typeof UpdateStaffUserBody>;
