import type { Context, MiddlewareHandler } from 'hono';
import type { Child } from 'hono/jsx';
import type { AppEnv } from '../env';
import { takeFlash } from './form-data';
import { Layout } from './components/layout';
import type { AdminSession } from './session';

/** The signed-in session of a request (set by the session guard in src/admin/index.ts). */
const sessions = new WeakMap<Request, AdminSession>();

export function setSession(c: Context<AppEnv>, session: AdminSession): void {
  sessions.set(c.req.raw, session);
  c.set('principal', session.principal);
}

export function sessionOf(c: Context<AppEnv>): AdminSession {
  const session = sessions.get(c.req.raw);
  if (!session) throw new Error('admin page reached without a session');
  return session;
}

export const maybeSession = (c: Context<AppEnv>) => sessions.get(c.req.raw);

/**
 * The guards of an API route (its `middleware`: the guard `apiRoute` derives from its access, then
 * its own) as one middleware, so a panel action is allowed exactly when the API operation it
 * mirrors is. Idempotency middleware passes through: forms send no Idempotency-Key.
 */
export function guard(route: object | { middleware?: MiddlewareHandler<AppEnv> | readonly MiddlewareHandler<AppEnv>[] }): MiddlewareHandler<AppEnv> {
  const m = (route as { middleware?: MiddlewareHandler<AppEnv> | readonly MiddlewareHandler<AppEnv>[] }).middleware;
  const list: MiddlewareHandler<AppEnv>[] = m === undefined ? [] : Array.isArray(m) ? [...m] : [m as MiddlewareHandler<AppEnv>];
  return async function routeGuards(c, next) {
    const run = async (k: number): Promise<void> => {
      if (k === list.length) return next();
      await list[k]!(c, () => run(k + 1));
    };
    await run(0);
  };
}

/** Renders a page in the layout, with the flash message the previous redirect left. */
export function page(c: Context<AppEnv>, options: { title: string; active: string; status?: number }, body: Child) {
  const flash = takeFlash(c);
  return c.html(
    <Layout title={options.title} session={sessionOf(c)} active={options.active} flash={flash}>
      {body}
    </Layout>,
    (options.status ?? 200) as 200,
  );
}
