import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import type { Context } from 'hono';
import { users } from '../../db/schema';
import type { AppEnv } from '../../env';
import { ChangePasswordBody } from '../../modules/auth/schemas';
import { authRoutes as routes, authService as service } from '../../modules/auth';
import { emptyForm, type FormState } from '../components/form';
import { guard, page, sessionOf } from '../context';
import { failure, failureStatus, readForm, redirectWith, str, validate } from '../form-data';
import { AccountPage } from '../pages/account';
import { startSession } from '../session';

const HERE = '/admin/account';

function show(c: Context<AppEnv>, form: FormState, status = 200) {
  return page(c, { title: 'Your account', active: HERE, status }, <AccountPage session={sessionOf(c)} form={form} />);
}

export const accountRoutes = new Hono<AppEnv>()
  .get('/', (c) => show(c, emptyForm()))
  // POST /api/auth/password's guard and service: the token version moves on, so every other
  // session and token of the user ends; this browser gets a new session.
  .post('/password', guard(routes.changePassword), async (c) => {
    const form = await readForm(c);
    const userId = sessionOf(c).user.id;
    try {
      const input = validate(ChangePasswordBody, { currentPassword: str(form, 'currentPassword'), newPassword: str(form, 'newPassword') });
      await service.changePassword(c.var.db, c.env, userId, input);
      const row = await c.var.db.query.users.findFirst({ where: eq(users.id, userId) });
      if (row) await startSession(c, row);
      return redirectWith(c, HERE, 'Password changed. Your other sessions are signed out.');
    } catch (error) {
      // Passwords are never written back into the form.
      return show(c, failure(error, {}), failureStatus(error));
    }
  });
