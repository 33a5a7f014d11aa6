import { createMiddleware } from 'hono/factory';
import { createDb } from '../db/client';
import type { AppEnv } from '../env';

/** Builds the per-request services handlers reach through `c.var` (bindings exist only per request). */
export function services() {
  return createMiddleware<AppEnv>(async function services(c, next) {
    c.set('db', createDb(c.env.DB));
    await next();
  });
}
