import type { Context } from 'hono';
import type { AppEnv } from '../env';
import { CRUD_OPERATIONS, type CrudRoutes } from './crud-routes';
import { createRouter } from './router';

/** Wires the routes of a plain collection to their handlers, in the documented order. */
export function crudRouter<R extends CrudRoutes>(routes: R, handlers: { [K in keyof R]: (c: Context<AppEnv>) => Promise<Response> }) {
  const router = createRouter();
  for (const op of CRUD_OPERATIONS) {
    const route = routes[op];
    // Each handler answers its route's own schemas; the generic layer cannot spell them.
    if (route) router.openapi(route, handlers[op as keyof R] as never);
  }
  return router;
}
