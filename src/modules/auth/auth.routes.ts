import { access } from '../../lib/route-access';
import { z } from '@hono/zod-openapi';
import { alsoCountClientIp } from '../../middleware/rate-limit';
import { MAX_FAILURES_FROM_ONE_ADDRESS, MAX_FAILURES_PER_ACCOUNT } from '../../middleware/credentials/login-lockout';
import { apiRoute, errorResponses, jsonBody, operation, successResponse, writeErrors } from '../../lib/openapi';
import { BootstrapBody, ChangePasswordBody, LoginBody, MeSchema, PasswordResetBody, PasswordResetConfirmBody, RegisterBody, SessionSchema } from './auth.schemas';

const tags = ['Authentication'];
/** Public routes: no credential needed, but one that is present and bad is still 401. */
const bodyErrors = [413, 415, 422] as const;

export const register = apiRoute({
  ...operation('auth', 'register', 'registerCustomer'),
  method: 'post',
  path: '/auth/register',
  tags,
  summary: 'Sign up as a customer',
  description:
    'Creates a customer account and signs it in. Emits `customer.registered`. The email is compared case-insensitively and stored in lowercase; ' +
    'one already in use is 409. Passwords need at least 8 characters and are never returned. ' +
    "With `cartToken`, the guest cart it opens becomes the new customer's cart, as at sign-in.",
  policy: { access: access.public() },
  request: { body: jsonBody(RegisterBody, 'The new account.') },
  responses: { 201: successResponse(SessionSchema, 'The account, signed in.'), ...errorResponses(401, ...bodyErrors, 409) },
});

export const login = apiRoute({
  ...operation('auth', 'login', 'login'),
  method: 'post',
  path: '/auth/login',
  tags,
  summary: 'Sign in',
  description:
    'For every user (customer, vendor user, admin user). An unknown email and a wrong password give the same 401 ' +
    "('Invalid email or password'); a disabled account is 401 too. Failed sign-ins lock an account for 15 minutes: after " +
    `${MAX_FAILURES_FROM_ONE_ADDRESS} failures from one client network (an IPv4 address, an IPv6 /64) within 15 minutes (for that network), after ${MAX_FAILURES_PER_ACCOUNT} from all networks together ` +
    '(for everyone); a locked account is 429 RATE_LIMITED with `Retry-After`, even with the right password, and an email without an account locks ' +
    'the same way. Each attempt is counted before its password is checked, so guesses sent at once cannot overtake the lock. ' +
    "Every attempt is also counted on the client network's rate limit, whatever credential it carries.",
  policy: { access: access.public() },
  middleware: [alsoCountClientIp()] as const,
  request: { body: jsonBody(LoginBody, 'Email and password.') },
  responses: { 200: successResponse(SessionSchema, 'A token for the user.'), ...errorResponses(401, ...bodyErrors) },
});

export const me = apiRoute({
  ...operation('auth', 'me', 'getMe'),
  method: 'get',
  path: '/auth/me',
  tags,
  summary: 'The signed-in user',
  description: 'The user behind the token, with its addresses.',
  policy: { access: access.user('its own account only.') },
  responses: { 200: successResponse(MeSchema, 'The signed-in user.'), ...errorResponses(401, 403) },
});

export const changePassword = apiRoute({
  ...operation('auth', 'changePassword', 'changePassword'),
  method: 'post',
  path: '/auth/password',
  tags,
  summary: 'Change your password',
  description:
    'Every token issued before stops working from the next request; the response carries a fresh one. A wrong `currentPassword` is ' +
    '422 VALIDATION_ERROR naming it (not 401: the token itself is fine).',
  policy: { access: access.user('its own password only.') },
  request: { body: jsonBody(ChangePasswordBody, 'The current and the new password.') },
  responses: { 200: successResponse(SessionSchema, 'A fresh token.'), ...errorResponses(...writeErrors) },
});

export const bootstrap = apiRoute({
  ...operation('auth', 'bootstrap', 'bootstrapAdmin'),
  method: 'post',
  path: '/auth/bootstrap',
  tags,
  summary: 'Create the first admin user',
  description:
    "One time only, for a deployed store: creates an admin user when `secret` matches the store's BOOTSTRAP_SECRET. " +
    '404 when no BOOTSTRAP_SECRET is configured (the endpoint is off); 403 for a wrong secret; 409 once any admin user exists. ' +
    'Remove the secret after use.',
  policy: { access: access.public() },
  request: { body: jsonBody(BootstrapBody, 'The secret and the admin account.') },
  responses: { 201: successResponse(SessionSchema, 'The admin user, signed in.'), ...errorResponses(401, 403, 404, ...bodyErrors, 409) },
});

export const requestPasswordReset = apiRoute({
  ...operation('auth', 'requestPasswordReset', 'requestPasswordReset'),
  method: 'post',
  path: '/auth/password-reset',
  tags,
  summary: 'Ask for a password-reset email',
  description:
    'Always 202 with the same body, whether or not an account has this email, and with the same work done either way, so the answer does not tell. ' +
    'For an active account, the `password_reset` email (a link to PASSWORD_RESET_URL with `?token=`) is queued; the token is single use and expires ' +
    'after PASSWORD_RESET_TTL_SECONDS (an hour by default). A second request for the same account within a minute sends nothing.',
  policy: { access: access.public() },
  request: { body: jsonBody(PasswordResetBody, "The account's email.") },
  responses: {
    202: {
      content: { 'application/json': { schema: z.object({ success: z.literal(true), data: z.null(), message: z.string() }) } },
      description: 'Accepted: if the account exists, the email is on its way.',
    },
    ...errorResponses(401, ...bodyErrors),
  },
});

export const confirmPasswordReset = apiRoute({
  ...operation('auth', 'confirmPasswordReset', 'confirmPasswordReset'),
  method: 'post',
  path: '/auth/password-reset/confirm',
  tags,
  summary: 'Set a new password with a reset token',
  description:
    'Spends the token (and every other outstanding reset token of the account), sets the password, and retires every token issued before, ' +
    'as a password change does; the answer signs the user in. A token that is unknown, used or expired is 422 on `token`.',
  policy: { access: access.public() },
  request: { body: jsonBody(PasswordResetConfirmBody, 'The token and the new password.') },
  responses: { 200: successResponse(SessionSchema, 'Signed in with the new password.'), ...errorResponses(401, ...bodyErrors) },
});
