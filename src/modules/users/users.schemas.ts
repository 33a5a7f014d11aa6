import { z } from '@hono/zod-openapi';
import { users } from '../../db/schema';
import { MIN_PASSWORD_LENGTH } from '../../lib/password';
import { createSelectSchema, Timestamp } from '../../lib/schemas';

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
export const Phone = z
  .string()
  .trim()
  .regex(/^\+?[0-9 ()-]{5,30}$/, 'must be a phone number, like +1 555 0100')
  .openapi({ example: '+1 555 0100' });

/** A user as the API shows it: never the password hash or the token version. */
export const UserSchema = createSelectSchema(users, { createdAt: Timestamp, updatedAt: Timestamp, lastLoginAt: Timestamp.nullable() })
  .omit({ passwordHash: true, tokenVersion: true, roleId: true })
  .extend({ role: z.string().openapi({ description: 'The id of the role: admin, vendor, customer or a custom role.', example: 'customer' }) })
  .openapi('User');
export type User = z.infer<typeof UserSchema>;
