import type { Context } from 'hono';
import type { Database } from '../db/client';
import type { AppEnv } from '../env';
import type { Principal } from './access';
import { created, list, noContent, ok, pagination } from './envelope';
import { type FieldTree, project } from './query';

/** What a plain collection's service provides to the shared handlers. Reads get the caller, for collections whose public view is narrower (drafts). */
export interface CrudService<T extends { id: string }, Q, C, U> {
  list(db: Database, query: Q, principal: Principal): Promise<{ items: T[]; total: number }>;
  get(db: Database, idOrSlug: string, principal: Principal): Promise<T>;
  create(db: Database, input: C): Promise<T>;
  update(db: Database, id: string, patch: U): Promise<T>;
  remove(db: Database, id: string): Promise<void>;
}

// The routes' validators have already parsed these targets; the generic layer reads them untyped.
const valid = <T>(c: Context<AppEnv>, target: 'query' | 'param' | 'json') => (c.req.valid as (t: string) => T)(target);

/** Handlers for the routes of `crudRoutes`: parse, call the service, wrap the envelope. */
export function crudHandlers<T extends { id: string }, Q, C, U>(service: CrudService<T, Q, C, U>, names: { path: string; noun: string }) {
  const label = names.noun[0]!.toUpperCase() + names.noun.slice(1);
  return {
    async list(c: Context<AppEnv>) {
      const query = valid<Q & { page: number; limit: number; fields?: FieldTree }>(c, 'query');
      const { items, total } = await service.list(c.var.db, query, c.var.principal);
      return list(
        c,
        items.map((item) => project(item, query.fields)),
        pagination(query.page, query.limit, total),
      );
    },
    async get(c: Context<AppEnv>) {
      const { fields } = valid<{ fields?: FieldTree }>(c, 'query');
      return ok(c, project(await service.get(c.var.db, valid<{ id: string }>(c, 'param').id, c.var.principal), fields));
    },
    async create(c: Context<AppEnv>) {
      const item = await service.create(c.var.db, valid<C>(c, 'json'));
      return created(c, item, `/api${names.path}/${item.id}`, `${label} created`);
    },
    async update(c: Context<AppEnv>) {
      return ok(c, await service.update(c.var.db, valid<{ id: string }>(c, 'param').id, valid<U>(c, 'json')), `${label} updated`);
    },
    async delete(c: Context<AppEnv>) {
      await service.remove(c.var.db, valid<{ id: string }>(c, 'param').id);
      return noContent(c);
    },
  };
}
