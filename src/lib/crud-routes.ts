import type { z } from '@hono/zod-openapi';
import { apiRoute, crudOperations, errorResponses, IdParams, jsonBody, listResponse, noContentResponse, publicReadErrors, successResponse, writeErrors } from './openapi';
import { type AnyFilters, type ListQueryConfig, listQuerySchema, readQuerySchema } from './query';
import { access, type RouteAccess } from './route-access';
import type { RoutePolicy } from './route-policy';

/** The five operations of a collection, in the order they are registered and documented. */
export const CRUD_OPERATIONS = ['list', 'create', 'get', 'update', 'delete'] as const;
export type CrudOperation = (typeof CRUD_OPERATIONS)[number];
type CrudWrite = 'create' | 'update' | 'delete';
type ErrorStatus = Parameters<typeof errorResponses>[number];
/** Who may call a route (src/lib/route-access.ts; apiRoute adds its sentence to the description) and the errors that answers. */
interface Access {
  access: RouteAccess;
  errors: readonly ErrorStatus[];
}

interface CrudSpec<S extends z.ZodType, C extends z.ZodType, U extends z.ZodType, F extends AnyFilters, O extends CrudOperation> {
  /** Collection path, e.g. `/brands`. */
  path: string;
  tag: string;
  /** The client libraries' group (`x-sdk-group`, e.g. `brands`) and the PascalCase nouns of the operation ids (`Brand`, `Brands`: listBrands, getBrand, ...). */
  sdk: { group: string; singular: string; plural: string };
  /** Singular and plural names for summaries. */
  noun: string;
  nouns: string;
  schema: S;
  createBody: C;
  /** Required when the operations include `update`. */
  updateBody?: U;
  listQuery: ListQueryConfig<F>;
  /** Permission resource: writes need `<resource>:write`. */
  resource: string;
  /**
   * `scoped` when the service limits a vendor's credential to its own vendor's rows; otherwise (the
   * default) a vendor's credential is refused whatever it holds (src/lib/route-access.ts).
   */
  vendor?: 'scoped';
  /** Who reads: anyone (`public`, the default), or only holders of `<resource>:read` (`permission`). */
  reads?: 'public' | 'permission';
  /**
   * With `reads: 'permission'`: who else may get one item, completing "Needs `<resource>:read`, except
   * that ...". The get route then only asks for a credential; the service's `get` enforces the rule.
   */
  readsOwn?: string;
  /** The operations the collection has (all five by default). */
  operations?: readonly O[];
  /** The writes that can answer 409 (all three by default): empty when nothing is unique and nothing refuses. */
  conflicts?: readonly CrudWrite[];
  /** The path parameter of one item: `IdParams` (`{id}`) by default; its one key names it (`{code}` for currencies). */
  itemParams?: z.ZodObject;
  /** The create response when it is more than the item: a secret shown only then. */
  created?: { schema: z.ZodType; description: string };
  /** Summaries that read better than the generated ones (`Revoke an API key`). */
  summaries?: Partial<Record<CrudOperation, string>>;
  /** Extra words per route (events emitted, rules). */
  notes?: Partial<Record<CrudOperation, string>>;
  /** The policy of the two reads, list and get (src/lib/route-policy.ts): `{ cache: 'catalogue' }` for catalogue and content. Writes take the defaults. */
  readPolicy?: Partial<RoutePolicy>;
  /**
   * The unique readable key an item is also found by (`slug` by default; null for none), and the
   * field it is made from when omitted (`name`; none for a key the caller always gives, like a code).
   */
  slug?: { field: string; from?: string } | null;
}

/**
 * The routes of a staff-write collection (list, create, get by id or slug, update, delete, or some of
 * them), public-read or read with a permission, declared once so every such resource documents and
 * guards them the same way.
 */
export function crudRoutes<S extends z.ZodType, C extends z.ZodType, U extends z.ZodType, F extends AnyFilters, O extends CrudOperation = CrudOperation>(
  spec: CrudSpec<S, C, U, F, O>,
) {
  const tags = [spec.tag];
  const names = crudOperations(spec.sdk.group, spec.sdk.singular, spec.sdk.plural);
  const params = spec.itemParams ?? IdParams;
  const key = Object.keys(params.shape)[0]!;
  const item = `${spec.path}/{${key}}`;
  const readPermission = spec.reads === 'permission' ? `${spec.resource}:read` : undefined;
  const read: Access = readPermission
    ? { access: access.permission(readPermission, { vendor: spec.vendor }), errors: [400, 401, 403] }
    : { access: access.public(), errors: publicReadErrors };
  const getRead: Access = readPermission && spec.readsOwn ? { ...read, access: access.credential(`\`${readPermission}\` reads any, except that ${spec.readsOwn}`) } : read;
  const write: Access = { access: access.permission(`${spec.resource}:write`, { vendor: spec.vendor }), errors: writeErrors };
  const conflicts = new Set<CrudWrite>(spec.conflicts ?? ['create', 'update', 'delete']);
  const conflict = (op: CrudWrite) => (conflicts.has(op) ? ([409] as const) : ([] as const));
  const slug = spec.slug === undefined ? { field: 'slug', from: 'name' } : spec.slug;
  const slugNote = slug?.from ? `Without \`${slug.field}\`, one is made from the ${slug.from}. ` : '';
  const created = spec.created ?? { schema: spec.schema, description: `The created ${spec.noun}.` };
  // What every route of the collection states the same way: names, path, summary, notes, guard.
  const head = <M extends 'get' | 'post' | 'patch' | 'delete'>(op: CrudOperation, method: M, path: string, summary: string, before = '') => ({
    ...names[op],
    method,
    path,
    tags,
    summary: spec.summaries?.[op] ?? summary,
    description: [spec.notes?.[op], before].filter(Boolean).join(' '),
  });

  const build = {
    list: () =>
      apiRoute({
        ...head('list', 'get', spec.path, `List ${spec.nouns}`),
        policy: { ...spec.readPolicy, access: read.access },
        request: { query: listQuerySchema(spec.listQuery) },
        responses: { 200: listResponse(spec.schema, `A page of ${spec.nouns}.`), ...errorResponses(...read.errors) },
      }),
    create: () =>
      apiRoute({
        ...head('create', 'post', spec.path, `Create a ${spec.noun}`, slugNote),
        policy: { access: write.access },
        request: { body: jsonBody(spec.createBody, `The ${spec.noun}.`) },
        responses: { 201: successResponse(created.schema, created.description), ...errorResponses(...write.errors, ...conflict('create')) },
      }),
    get: () =>
      apiRoute({
        ...head('get', 'get', item, `Get a ${spec.noun} by ${key}${slug ? ` or ${slug.field}` : ''}`),
        policy: { ...spec.readPolicy, access: getRead.access },
        request: { params, query: readQuerySchema(spec.listQuery.selectable) },
        responses: { 200: successResponse(spec.schema, `The ${spec.noun}.`), ...errorResponses(...getRead.errors, 404) },
      }),
    update: () => {
      if (!spec.updateBody) throw new Error(`crudRoutes ${spec.path}: update needs an updateBody`);
      return apiRoute({
        ...head('update', 'patch', item, `Update a ${spec.noun}`),
        policy: { access: write.access },
        request: { params, body: jsonBody(spec.updateBody, 'Fields to change.') },
        responses: { 200: successResponse(spec.schema, `The updated ${spec.noun}.`), ...errorResponses(...write.errors, 404, ...conflict('update')) },
      });
    },
    delete: () =>
      apiRoute({
        ...head('delete', 'delete', item, `Delete a ${spec.noun}`),
        policy: { access: write.access },
        request: { params },
        responses: { 204: noContentResponse, ...errorResponses(401, 403, 404, ...conflict('delete')) },
      }),
  };
  const operations = CRUD_OPERATIONS.filter((op) => spec.operations?.includes(op as O) ?? true);
  return Object.fromEntries(operations.map((op) => [op, build[op]()])) as { [K in O]: ReturnType<(typeof build)[K]> };
}

/** The routes `crudRoutes` can declare, for code that takes any collection's. */
export type CrudRoutes = Partial<ReturnType<typeof crudRoutes>>;
