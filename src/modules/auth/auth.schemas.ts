import { z } from '@hono/zod-openapi';
import { AddressSchema, customerProfileFields } from '../customers/schemas';
import { Email, Password, PersonName, UserSchema } from '../users/schemas';

/** What sign-up, sign-in, a password change and bootstrap return: a bearer token and who it is for. */
export const SessionSchema = z
  .object({
    token: z.string().openapi({ description: 'An HS256 JWT: send it as `Authorization: Bearer <token>`.' }),
    expiresIn: z.int().openapi({ description: 'Seconds until the token expires.', example: 86400 }),
    user: UserSchema,
  })
  .openapi('Session');
export type Session = z.infer<typeof SessionSchema>;

export const MeSchema = UserSchema.extend({ addresses: z.array(AddressSchema) }).openapi('Me');

/** A guest cart's token, taken along at sign-up and sign-in (src/modules/carts/adopt.ts). */
const CartToken = (what: string) =>
  z
    .string()
    .max(100)
    .optional()
    .openapi({
      description: `A guest cart's token: the cart is taken into the user's cart as \`POST /api/carts/{id}/adopt\` does. Best effort: a token that opens no cart does not fail the ${what}.`,
    });

export const RegisterBody = z
  .strictObject({
    email: customerProfileFields.email,
    password: Password,
    name: customerProfileFields.name.optional(),
    phone: customerProfileFields.phone.optional(),
    cartToken: CartToken('sign-up'),
  })
  .openapi('Register');

export const LoginBody = z
  .strictObject({
    email: Email,
    // Not held to today's password rules: an account may predate them.
    password: z.string().min(1).max(256).openapi({ format: 'password' }),
    cartToken: CartToken('sign-in'),
  })
  .openapi('Login');

export const ChangePasswordBody = z
  .strictObject({
    currentPassword: z.string().min(1).max(256).openapi({ format: 'password' }),
    newPassword: Password,
  })
  .openapi('ChangePassword');

export const BootstrapBody = z
  .strictObject({
    secret: z.string().min(1).max(1024).openapi({ format: 'password', description: 'The BOOTSTRAP_SECRET configured on the store.' }),
    email: Email,
    password: Password,
    name: PersonName.optional(),
  })
  .openapi('Bootstrap');

export type RegisterInput = z.infer<typeof RegisterBody>;
export type LoginInput = z.infer<typeof LoginBody>;
export type ChangePasswordInput = z.infer<typeof ChangePasswordBody>;
export type BootstrapInput = z.infer<typeof BootstrapBody>;

export const PasswordResetBody = z.strictObject({ email: Email }).openapi('PasswordResetRequest');

export const PasswordResetConfirmBody = z
  .strictObject({
    token: z.string().min(1).max(200).openapi({ description: 'The token from the reset email (the `token` query parameter of its link).' }),
    password: Password,
  })
  .openapi('PasswordResetConfirm');

export type PasswordResetInput = z.infer<typeof PasswordResetBody>;
export type PasswordResetConfirmInput = z.infer<typeof PasswordResetConfirmBody>;
