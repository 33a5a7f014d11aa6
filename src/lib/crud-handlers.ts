import type { Context } from 'hono';
import type { Database } from '../db/client';
import type { AppEnv } from '../env';
import type { Principal } from './access';
import { created, list, noContent, ok, pagination } from './envelope';
import { type FieldTree, project } from './query';

/**
 * What a plain collection's service provides to the shared handlers: the methods of the operations
 * it has. Reads get the caller, for collections whose view depends on it (drafts, a vendor's own record).
 */
export interface CrudService<T, Q, C, U> {
  list(db: Database, query: Q, principal: Principal): Promise<{ items: T[]; total: number }>;
  get(db: Database, key: string, principal: Principal): Promise<T>;
  create(db: Database, input: C): Promise<T>;
  update(db: Database, key: string, patch: U): Promise<T>;
  remove(db: Database, key: string): Promise<void>;
}

// biome-ignore lint/suspicious/noExplicitAny: any collection's service; the routes' validators type what reaches it.
type AnyCrudService = Partial<CrudService<any, any, any, any>>;
type Handler = (c: Context<AppEnv>) => Promise<Response>;
/** One handler per service method, named after its route (`remove` serves `delete`). */
export type CrudHandlers<S> = { [M in keyof S & keyof CrudService<unknown, unknown, unknown, unknown> as M extends 'remove' ? 'delete' : M]: Handler };

interface CrudNames {
  /** Collection path, e.g. `/brands`, for the Location of a created item. */
  path: string;
  /** Singular noun of the messages (`Brand created`). */
  noun: string;
  /** The path parameter and item field an item is addressed by (`id` by default; `code` for currencies). */
  key?: string;
  /** The message of a create answer when the default `<Noun> created` is not enough (a secret shown once). */
  createdMessage?: string;
}

// The routes' validators have already parsed these targets; the generic layer reads them untyped.
const valid = <T>(c: Context<AppEnv>, target: 'query' | 'param' | 'json') => (c.req.valid as (t: string) => T)(target);

/**
 * Handlers for the routes of `crudRoutes`: parse, call the service, wrap the envelope. A service whose
 * writes depend on the request (the caller, the environment) is given as a function of its context.
 */
export function crudHandlers<S extends AnyCrudService>(service: S | ((c: Context<AppEnv>) => S), names: CrudNames): CrudHandlers<S> {
  const label = names.noun[0]!.toUpperCase() + names.noun.slice(1);
  const key = names.key ?? 'id';
  // Every handler is built; the router wires only those of the collection's routes, which the types match to the service's methods.
  const serve = (c: Context<AppEnv>) => (typeof service === 'function' ? service(c) : service) as CrudService<Record<string, unknown>, unknown, unknown, unknown>;
  const itemKey = (c: Context<AppEnv>) => valid<Record<string, string>>(c, 'param')[key]!;
  const handlers: Record<'list' | 'get' | 'create' | 'update' | 'delete', Handler> = {
    async list(c) {
      const query = valid<{ page: number; limit: number; fields?: FieldTree }>(c, 'query');
      const { items, total } = await serve(c).list(c.var.db, query, c.var.principal);
      return list(
        c,
        items.map((item) => project(item, query.fields)),
        pagination(query.page, query.limit, total),
      );
    },
    async get(c) {
      const { fields } = valid<{ fields?: FieldTree }>(c, 'query');
      return ok(c, project(await serve(c).get(c.var.db, itemKey(c), c.var.principal), fields));
    },
    async create(c) {
      const item = await serve(c).create(c.var.db, valid(c, 'json'));
      return created(c, item, `/api${names.path}/${item[key]}`, names.createdMessage ?? `${label} created`);
    },
    async update(c) {
      return ok(c, await serve(c).update(c.var.db, itemKey(c), valid(c, 'json')), `${label} updated`);
    },
    async delete(c) {
      await serve(c).remove(c.var.db, itemKey(c));
      return noContent(c);
    },
  };
  return handlers as CrudHandlers<S>;
}
