import { z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { crudRoutes } from '../../src/lib/crud-routes';
import { declaredPolicy } from '../../src/lib/route-policy';
import { currencyListQuery } from '../../src/modules/settings/currencies.query';
import { CurrencyParams } from '../../src/modules/settings/currencies.schemas';

// The options of crudRoutes that the resources beyond the plain catalogue ones use, read off the routes it declares.

const Thing = z.object({ code: z.string() });
const base = {
  path: '/things',
  tag: 'Things',
  sdk: { group: 'things', singular: 'Thing', plural: 'Things' },
  noun: 'thing',
  nouns: 'things',
  schema: Thing,
  createBody: Thing,
  updateBody: Thing.partial(),
  listQuery: currencyListQuery,
  resource: 'content',
  slug: null,
};
const statuses = (route: { responses: object }) => Object.keys(route.responses).map(Number);
const policy = (route: object) => declaredPolicy(route as never);
const middlewareNames = (route: object) => [(route as { middleware?: unknown }).middleware ?? []].flat().map((m) => (m as { name: string }).name);

describe('crudRoutes', () => {
  it('declares all five operations with a 409 on every write by default', () => {
    const routes = crudRoutes(base);
    expect(Object.keys(routes)).toEqual(['list', 'create', 'get', 'update', 'delete']);
    expect(statuses(routes.create)).toContain(409);
    expect(statuses(routes.update)).toContain(409);
    expect(statuses(routes.delete)).toContain(409);
  });

  it('declares only the operations asked for, and an update needs no body then', () => {
    const { updateBody: _, ...withoutUpdate } = base;
    const routes = crudRoutes({ ...withoutUpdate, operations: ['delete', 'list', 'get'] });
    expect(Object.keys(routes)).toEqual(['list', 'get', 'delete']);
    expect(() => crudRoutes(withoutUpdate)).toThrow(/update needs an updateBody/);
  });

  it('documents 409 only on the writes named in conflicts', () => {
    const routes = crudRoutes({ ...base, conflicts: ['update'] });
    expect(statuses(routes.create)).not.toContain(409);
    expect(statuses(routes.update)).toContain(409);
    expect(statuses(routes.delete)).not.toContain(409);
  });

  it('addresses items by the key of itemParams', () => {
    const routes = crudRoutes({ ...base, itemParams: CurrencyParams });
    expect(routes.get.path).toBe('/things/{code}');
    expect(routes.delete.path).toBe('/things/{code}');
    expect(routes.get.summary).toBe('Get a thing by code');
  });

  it('with readsOwn, lets any credential reach get and documents who may read', () => {
    const routes = crudRoutes({ ...base, reads: 'permission', readsOwn: 'a user reads its own thing.' });
    expect(middlewareNames(routes.list)).toEqual(['accessGuard']);
    expect(middlewareNames(routes.get)).toEqual(['accessGuard']);
    expect(policy(routes.get).access).toEqual({ kind: 'credential', reach: '`content:read` reads any, except that a user reads its own thing.' });
    expect(routes.get.description).toBe('Needs a credential: `content:read` reads any, except that a user reads its own thing.');
    expect(routes.list.description).toBe("Needs `content:read`; a vendor's credential is refused.");
    expect(routes.list.security).toEqual([{ bearerAuth: [] }]);
  });

  it('refuses vendors on every operation unless the collection says its service scopes them', () => {
    const refused = crudRoutes({ ...base, reads: 'permission' });
    const scoped = crudRoutes({ ...base, reads: 'permission', vendor: 'scoped' });
    for (const op of ['list', 'create', 'get', 'update', 'delete'] as const) {
      expect(policy(refused[op]).access).toMatchObject({ kind: 'permission', vendor: 'refused' });
      expect(policy(scoped[op]).access).toMatchObject({ kind: 'permission', vendor: 'scoped' });
    }
  });

  it('answers a create with the created schema and keeps summary overrides', () => {
    const WithSecret = Thing.extend({ secret: z.string() });
    const routes = crudRoutes({ ...base, created: { schema: WithSecret, description: 'Shown once.' }, summaries: { delete: 'Retire a thing' } });
    const created = routes.create.responses[201] as { description: string; content: { 'application/json': { schema: z.ZodObject } } };
    expect(created.description).toBe('Shown once.');
    expect(Object.keys(created.content['application/json'].schema.shape.data.shape)).toContain('secret');
    expect(routes.delete.summary).toBe('Retire a thing');
    expect(routes.update.summary).toBe('Update a thing');
  });

  describe('a nested collection (parent) listed whole', () => {
    const ParentParams = z.object({ id: z.string().openapi({ param: { name: 'id', in: 'path' } }) });
    const PartParams = z.object({ partId: z.string().openapi({ param: { name: 'partId', in: 'path' } }) });
    const { listQuery: _, ...withoutListQuery } = base;
    const nested = { ...withoutListQuery, path: '/things/{id}/parts', parent: { params: ParentParams }, itemParams: PartParams };
    const requestOf = (route: object) => (route as { request?: { params?: z.ZodObject; query?: z.ZodObject } }).request ?? {};

    it("puts every route under the parent's item, its parameter first, and documents 404 on all five", () => {
      const routes = crudRoutes({ ...nested, whole: {} });
      expect(routes.list.path).toBe('/things/{id}/parts');
      expect(routes.create.path).toBe('/things/{id}/parts');
      expect(routes.get.path).toBe('/things/{id}/parts/{partId}');
      expect(Object.keys(requestOf(routes.list).params!.shape)).toEqual(['id']);
      expect(Object.keys(requestOf(routes.create).params!.shape)).toEqual(['id']);
      for (const op of ['get', 'update', 'delete'] as const) expect(Object.keys(requestOf(routes[op]).params!.shape)).toEqual(['id', 'partId']);
      for (const op of ['list', 'create', 'get', 'update', 'delete'] as const) expect(statuses(routes[op])).toContain(404);
    });

    it('lists whole with no query, so its reads cannot answer 400', () => {
      const routes = crudRoutes({ ...nested, whole: {} });
      expect(requestOf(routes.list).query).toBeUndefined();
      expect(requestOf(routes.get).query).toBeUndefined();
      expect(statuses(routes.list)).not.toContain(400);
      expect(statuses(routes.get)).not.toContain(400);
      expect((routes.list.responses[200] as { description: string }).description).toBe('The things.');
    });

    it("takes the whole list's query on both reads, and 400 with it", () => {
      const Fields = z.strictObject({ fields: z.string().optional() });
      const routes = crudRoutes({ ...nested, whole: { query: Fields } });
      expect(requestOf(routes.list).query).toBe(Fields);
      expect(requestOf(routes.get).query).toBe(Fields);
      expect(statuses(routes.list)).toContain(400);
    });

    it('with reach, lets any credential call every operation and leaves the row to the handler', () => {
      const routes = crudRoutes({ ...nested, whole: {}, reach: 'the owner of the thing.' });
      for (const op of ['list', 'create', 'get', 'update', 'delete'] as const) {
        expect(policy(routes[op]).access).toEqual({ kind: 'credential', reach: 'the owner of the thing.' });
        expect(routes[op].description).toContain('Needs a credential: the owner of the thing.');
      }
    });

    it("refuses a path that does not hold the parent's parameter before the collection", () => {
      expect(() => crudRoutes({ ...nested, path: '/things/parts', whole: {} })).toThrow(/ends in \/\{id\}\/<collection>/);
    });
  });
});
