import type { Context } from 'hono';
import type { Database } from '../db/client';
import type { AppEnv } from '../env';
import type { Principal } from './access';
import type { CrudOperation } from './crud-routes';
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

/**
 * The service of a nested collection (`crudRoutes({ parent })`): the same methods, each given the
 * parent's id first; each answers 404 when there is no such parent. A whole list (`crudRoutes({ whole })`)
 * returns every item.
 */
export interface NestedCrudService<T, Q, C, U> {
  list(db: Database, parentId: string, query: Q, principal: Principal): Promise<T[] | { items: T[]; total: number }>;
  get(db: Database, parentId: string, key: string, principal: Principal): Promise<T>;
  create(db: Database, parentId: string, input: C): Promise<T>;
  update(db: Database, parentId: string, key: string, patch: U): Promise<T>;
  remove(db: Database, parentId: string, key: string): Promise<void>;
}

// biome-ignore lint/suspicious/noExplicitAny: any collection's service; the routes' validators type what reaches it.
type AnyCrudService = Partial<CrudService<any, any, any, any>>;
// biome-ignore lint/suspicious/noExplicitAny: as above.
type AnyNestedCrudService = Partial<NestedCrudService<any, any, any, any>>;
type Handler = (c: Context<AppEnv>) => Promise<Response>;
/** One handler per service method, named after its route (`remove` serves `delete`). */
export type CrudHandlers<S> = { [M in keyof S & keyof CrudService<unknown, unknown, unknown, unknown> as M extends 'remove' ? 'delete' : M]: Handler };

interface CrudNames {
  /** Collection path, e.g. `/brands`, for the Location of a created item; under a parent, with its parameter (`/customers/{id}/addresses`). */
  path: string;
  /** Singular noun of the messages (`Brand created`). */
  noun: string;
  /** The path parameter and item field an item is addressed by (`id` by default; `code` for currencies). */
  key?: string;
  /** The item's path parameter when it is not named after `key` (a nested item's `{methodId}`, its field `id`). */
  param?: string;
  /** The message of a create answer when the default `<Noun> created` is not enough (a secret shown once). */
  createdMessage?: string;
  /** A whole list (`crudRoutes({ whole })`): one page of every item, this many at most. */
  whole?: { max: number };
}

interface NestedCrudNames extends CrudNames {
  /**
   * The parent: its path parameter, and how the id its service is given is found from it (the
   * parameter itself by default; `me` made the signed-in customer, refused when the caller may not
   * `read` or `write` that customer's items).
   */
  parent: { param: string; resolve?: (c: Context<AppEnv>, param: string, action: 'read' | 'write') => string };
}

// The routes' validators have already parsed these targets; the generic layer reads them untyped.
const valid = <T>(c: Context<AppEnv>, target: 'query' | 'param' | 'json') => (c.req.valid as (t: string) => T)(target);

/**
 * Handlers for the routes of `crudRoutes`: parse, call the service, wrap the envelope. A service whose
 * writes depend on the request (the caller, the environment) is given as a function of its context.
 */
export function crudHandlers<S extends AnyCrudService>(service: S | ((c: Context<AppEnv>) => S), names: CrudNames): CrudHandlers<S> {
  return handlersOf(service, names) as CrudHandlers<S>;
}

/** The handlers of a nested collection's routes (`crudRoutes({ parent })`): as `crudHandlers`, each service method given the parent's id first. */
export function nestedCrudHandlers<S extends AnyNestedCrudService>(service: S | ((c: Context<AppEnv>) => S), names: NestedCrudNames): CrudHandlers<S> {
  return handlersOf(service, names) as CrudHandlers<S>;
}

function handlersOf(service: object, names: CrudNames & Partial<Pick<NestedCrudNames, 'parent'>>): Record<CrudOperation, Handler> {
  const label = names.noun[0]!.toUpperCase() + names.noun.slice(1);
  const key = names.key ?? 'id';
  const { parent, whole } = names;
  // Every handler is built; the router wires only those of the collection's routes, which the types match to the service's methods.
  const serve = (c: Context<AppEnv>) =>
    (typeof service === 'function' ? (service as (c: Context<AppEnv>) => object)(c) : service) as NestedCrudService<Record<string, unknown>, unknown, unknown, unknown>;
  const itemKey = (c: Context<AppEnv>) => valid<Record<string, string>>(c, 'param')[names.param ?? key]!;
  // The arguments before the service's own: the parent's id for a nested collection, none otherwise (the
  // service typed as a nested one only to spell the call once).
  const under = (c: Context<AppEnv>, action: 'read' | 'write'): [] | [string] => {
    if (!parent) return [];
    const param = valid<Record<string, string>>(c, 'param')[parent.param]!;
    return [parent.resolve ? parent.resolve(c, param, action) : param];
  };
  const call = <M extends keyof NestedCrudService<unknown, unknown, unknown, unknown>>(c: Context<AppEnv>, method: M, ids: [] | [string], ...args: unknown[]) =>
    (serve(c)[method] as (...args: unknown[]) => ReturnType<NestedCrudService<Record<string, unknown>, unknown, unknown, unknown>[M]>)(c.var.db, ...ids, ...args);
  return {
    async list(c) {
      // A whole list without a query has no validated query at all.
      const query = valid<{ page: number; limit: number; fields?: FieldTree } | undefined>(c, 'query');
      const found = await call(c, 'list', under(c, 'read'), query, c.var.principal);
      const { items, total } = Array.isArray(found) ? { items: found, total: found.length } : found;
      return list(
        c,
        items.map((item) => project(item, query?.fields)),
        whole ? pagination(1, whole.max, total) : pagination(query!.page, query!.limit, total),
      );
    },
    async get(c) {
      const fields = valid<{ fields?: FieldTree } | undefined>(c, 'query')?.fields;
      return ok(c, project(await call(c, 'get', under(c, 'read'), itemKey(c), c.var.principal), fields));
    },
    async create(c) {
      const ids = under(c, 'write');
      const item = await call(c, 'create', ids, valid(c, 'json'));
      const path = parent ? names.path.replace(`{${parent.param}}`, ids[0]!) : names.path;
      return created(c, item, `/api${path}/${item[key]}`, names.createdMessage ?? `${label} created`);
    },
    async update(c) {
      return ok(c, await call(c, 'update', under(c, 'write'), itemKey(c), valid(c, 'json')), `${label} updated`);
    },
    async delete(c) {
      await call(c, 'remove', under(c, 'write'), itemKey(c));
      return noContent(c);
    },
  };
}
