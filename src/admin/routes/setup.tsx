import { Hono } from 'hono';
import type { Context } from 'hono';
import type { AppEnv } from '../../env';
import { ApiError, detailOf } from '../../lib/errors';
import { bootstrap } from '../../modules/auth';
import { BootstrapBody } from '../../modules/auth/schemas';
import { findUserByEmail } from '../../modules/users';
import { emptyForm, type FormState } from '../components/form';
import { sameOrigin, signInToken, validSignInToken } from '../csrf';
import { failure, failureStatus, readForm, str, validate } from '../form-data';
import { clientNetwork } from '../../lib/client-network';
import { countAttempt } from '../../middleware/credentials/login-lockout';
import { SetupPage } from '../pages/setup';
import { startSession } from '../session';
import { config } from '../../config';

/** Wrong secrets count like wrong passwords, per client IP, so the secret cannot be guessed here. */
const SETUP_ACCOUNT = 'bootstrap-secret';

function show(c: Context<AppEnv>, form: FormState, status = 200) {
  c.header('Cache-Control', 'no-store');
  return c.html(<SetupPage form={form} csrf={signInToken(c)} />, status as 200);
}

/** Without BOOTSTRAP_SECRET the page does not exist, as the API's bootstrap endpoint does not. */
function enabled(c: Context<AppEnv>) {
  if (!config(c.env).BOOTSTRAP_SECRET) throw new ApiError('NOT_FOUND', 'Bootstrap is not enabled on this store');
}

export const setupRoutes = new Hono<AppEnv>()
  .get('/setup', (c) => {
    enabled(c);
    return show(c, emptyForm());
  })
  .post('/setup', async (c) => {
    enabled(c);
    const form = await readForm(c);
    const values = { email: str(form, 'email') ?? '', name: str(form, 'name') ?? '' };
    if (!sameOrigin(c) || !validSignInToken(c, (await c.req.parseBody())._csrf)) {
      return show(c, { values, errors: {}, message: 'The form had expired. Please try again.' }, 403);
    }
    const db = c.var.db;
    try {
      const input = validate(BootstrapBody, { secret: form.secret?.[0] ?? '', email: str(form, 'email'), password: form.password?.[0] ?? '', name: str(form, 'name') });
      // Counted before the secret is compared, so guesses sent together cannot overtake the lock (login-lockout.ts).
      const attempt = await countAttempt(db, SETUP_ACCOUNT, clientNetwork(c));
      if (!attempt.allowed) throw new ApiError('RATE_LIMITED', `Too many wrong secrets from your address. Try again after ${attempt.lock.slice(11, 16)} UTC.`);
      try {
        await bootstrap(db, c.env, input);
      } catch (error) {
        if (error instanceof ApiError && error.code === 'AUTHORIZATION_ERROR') {
          throw new ApiError('VALIDATION_ERROR', 'The bootstrap secret is not right', {
            details: [detailOf({ field: 'secret', problem: 'is not the configured BOOTSTRAP_SECRET' })],
          });
        }
        throw error;
      }
      await startSession(c, (await findUserByEmail(db, input.email))!);
      return c.redirect('/admin', 303);
    } catch (error) {
      return show(c, failure(error, values), failureStatus(error));
    }
  });
