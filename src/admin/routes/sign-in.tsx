import { Hono } from 'hono';
import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { ApiError } from '../../lib/errors';
import { lookupUser } from '../../middleware/auth';
import { shopperNetwork } from '../../lib/client-network';
import { countClientIp } from '../../middleware/rate-limit';
import { login } from '../../modules/auth';
import { LoginBody } from '../../modules/auth/schemas';
import { findUserByEmail } from '../../modules/users';
import { emptyForm, type FormState } from '../components/form';
import { sameOrigin, sameToken, signInToken, validSignInToken } from '../csrf';
import { failure, readForm, redirectWith, str, takeFlash, validate } from '../form-data';
import { SignInPage } from '../pages/sign-in';
import { endSession, isPanelUser, readSession, startSession } from '../session';
import { config } from '../../config';

/** Where to go after signing in: only a path inside the panel, never another site. */
export function safeNext(next: string | undefined): string {
  return next && /^\/admin(\/[\w\-./?=&%]*)?$/.test(next) && !next.startsWith('//') ? next : '/admin';
}

function show(c: Context<AppEnv>, form: FormState, status = 200, next = c.req.query('next')) {
  c.header('Cache-Control', 'no-store');
  return c.html(<SignInPage form={form} csrf={signInToken(c)} next={safeNext(next)} flash={takeFlash(c)} setup={Boolean(config(c.env).BOOTSTRAP_SECRET)} />, status as 200);
}

export const signInRoutes = new Hono<AppEnv>()
  .get('/sign-in', async (c) => {
    if (await readSession(c)) return c.redirect(safeNext(c.req.query('next')), 303);
    return show(c, emptyForm());
  })
  .post('/sign-in', async (c) => {
    const form = await readForm(c);
    const values = { email: str(form, 'email') ?? '' };
    const next = str(form, 'next');
    if (!sameOrigin(c) || !validSignInToken(c, (await c.req.parseBody())._csrf)) {
      return show(c, { values, errors: {}, message: 'Your sign-in form had expired. Please try again.' }, 403, next);
    }
    const db = c.var.db;
    try {
      const input = validate(LoginBody, { email: str(form, 'email'), password: form.password?.[0] ?? '' });
      // Counted on the client IP like the API's login, and locked out by the same counters (login-lockout.ts).
      await countClientIp(c);
      await login(db, c.env, input, shopperNetwork(c));
      const row = (await findUserByEmail(db, input.email))!;
      // The same checks as every API request of this user (disabled, suspended vendor), then: staff only.
      const principal = await lookupUser(db, { sub: row.id, ver: row.tokenVersion });
      if (!isPanelUser(principal)) throw ApiError.forbidden('This account is a customer account; the admin panel is for admin and vendor users.');
      await startSession(c, row);
      return c.redirect(safeNext(next), 303);
    } catch (error) {
      const state = failure(error, values);
      return show(c, state, error instanceof ApiError ? error.status : 500, next);
    }
  })
  .post('/sign-out', async (c) => {
    const session = await readSession(c);
    // Signing out needs the session's CSRF token too, so another site cannot sign a user out.
    const token = (await c.req.parseBody())._csrf;
    if (!session) return c.redirect('/admin/sign-in', 303);
    if (!sameOrigin(c) || !sameToken(token, session.csrfToken)) return redirectWith(c, '/admin', 'Sign-out was refused: the form had expired. Please try again.', 'error');
    await endSession(c);
    return redirectWith(c, '/admin/sign-in', 'You have been signed out.');
  });
