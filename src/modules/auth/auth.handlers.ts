import { created, ok } from '../../lib/envelope';
import type { AppRouteHandler } from '../../lib/openapi';
import type { Principal } from '../../lib/access';
import { shopperNetwork } from '../../lib/client-network';
import type * as routes from './auth.routes';
import * as service from './auth.service';
import * as reset from './password-reset';

/** The access guard (a signed-in user) has run: the principal is a user. */
const userId = (principal: Principal) => (principal as Extract<Principal, { kind: 'user' }>).id;

export const register: AppRouteHandler<typeof routes.register> = async (c) => {
  const session = await service.register(c.var.db, c.env, c.req.valid('json'));
  return created(c, session, `/api/customers/${session.user.id}`, 'Account created');
};

export const login: AppRouteHandler<typeof routes.login> = async (c) => {
  return ok(c, await service.login(c.var.db, c.env, c.req.valid('json'), shopperNetwork(c)), 'Signed in');
};

export const me: AppRouteHandler<typeof routes.me> = async (c) => {
  return ok(c, await service.me(c.var.db, userId(c.var.principal)));
};

export const changePassword: AppRouteHandler<typeof routes.changePassword> = async (c) => {
  return ok(c, await service.changePassword(c.var.db, c.env, userId(c.var.principal), c.req.valid('json')), 'Password changed');
};

export const bootstrap: AppRouteHandler<typeof routes.bootstrap> = async (c) => {
  const session = await service.bootstrap(c.var.db, c.env, c.req.valid('json'));
  return created(c, session, `/api/users/${session.user.id}`, 'Admin user created');
};

export const requestPasswordReset: AppRouteHandler<typeof routes.requestPasswordReset> = async (c) => {
  const queued = await reset.requestPasswordReset(c.var.db, c.env, c.req.valid('json').email);
  // Sent after the answer: the queue call's timing must not tell either.
  c.executionCtx.waitUntil(reset.queueResetEmail(c.env, queued));
  return c.json({ success: true as const, data: null, message: 'If an account exists for this email, a reset link is on its way' }, 202);
};

export const confirmPasswordReset: AppRouteHandler<typeof routes.confirmPasswordReset> = async (c) => {
  const { token, password } = c.req.valid('json');
  const row = await reset.confirmPasswordReset(c.var.db, token, password);
  return ok(c, await service.sessionFor(c.env, row), 'Password reset');
};
