import type { crudHandlers } from './crud-handlers';
import type { crudRoutes } from './crud-routes';
import { createRouter } from './router';

/** Wires the five routes of a plain collection to their handlers. */
// biome-ignore lint/suspicious/noExplicitAny: the collection's own schemas; each handler is cast to its route below.
export function crudRouter(routes: ReturnType<typeof crudRoutes>, handlers: ReturnType<typeof crudHandlers<any, any, any, any>>) {
  return createRouter()
    .openapi(routes.list, handlers.list as never)
    .openapi(routes.create, handlers.create as never)
    .openapi(routes.get, handlers.get as never)
    .openapi(routes.update, handlers.update as never)
    .openapi(routes.delete, handlers.delete as never);
}
