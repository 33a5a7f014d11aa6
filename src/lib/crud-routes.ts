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

/**
 * The item a nested collection lives under (a zone's shipping methods, a customer's addresses): the
 * collection's `path` holds its parameter (`/settings/shipping-zones/{id}/methods`). Every route takes
 * that parameter before the item's, and each can answer 404 for a missing parent, so the list and
 * the create document it too.
 */
interface CrudParent {
  /** The parent's path parameter, one key (`{ id }` with its example and description). */
  params: z.ZodObject;
}

/**
 * A collection small enough to answer whole: its list is one page of every item (the service caps
 * how many there are), with no paging, sorting or filters. `query` is what both reads take (a
 * `fields` selection, a currency); without it they take no query, and cannot answer 400.
 */
interface WholeList {
  query?: z.ZodObject;
}

/** How the list is asked for: paged with the collection's list query, or whole. */
type ListShape<F extends AnyFilters> = { listQuery: ListQueryConfig<F>; whole?: never } | { whole: WholeList; listQuery?: never };

type CrudSpec<S extends z.ZodType, C extends z.ZodType, U extends z.ZodType, F extends AnyFilters, O extends CrudOperation> = CrudOptions<S, C, U, O> & ListShape<F>;

interface CrudOptions<S extends z.ZodType, C extends z.ZodType, U extends z.ZodType, O extends CrudOperation> {
  /** Collection path, e.g. `/brands`; under a parent, with its parameter (`/customers/{id}/addresses`). */
  path: string;
  /** The item this collection is nested under, if any. */
  parent?: CrudParent;
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
   * Instead of `reads` and `<resource>:write`: every operation needs only a credential, and the
   * handler decides by row as this says (`access.credential(reach)`: a customer's own addresses).
   */
  reach?: string;
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
 * guards them the same way; a nested collection (`parent`) too, its routes under its parent's item.
 */
export function crudRoutes<S extends z.ZodType, C extends z.ZodType, U extends z.ZodType, F extends AnyFilters, O extends CrudOperation = CrudOperation>(
  spec: CrudSpec<S, C, U, F, O>,
) {
  const tags = [spec.tag];
  const names = crudOperations(spec.sdk.group, spec.sdk.singular, spec.sdk.plural);
  const itemParams = spec.itemParams ?? IdParams;
  const key = Object.keys(itemParams.shape)[0]!;
  const parentParams = spec.parent && parentParamsOf(spec.path, spec.parent);
  // Under a parent, every route takes the parent's parameter first, and may find no parent (404).
  const params = parentParams ? parentParams.extend(itemParams.shape) : itemParams;
  const inParent = parentParams ? { params: parentParams } : {};
  const parentMissing = parentParams ? ([404] as const) : ([] as const);
  const item = `${spec.path}/{${key}}`;
  // A whole list's reads take its query or none; a paged list's get takes a `fields` selection.
  const readQuery = spec.whole ? spec.whole.query : readQuerySchema(spec.listQuery.selectable);
  const badQuery = spec.whole && !spec.whole.query ? [] : [400];
  const readPermission = spec.reads === 'permission' ? `${spec.resource}:read` : undefined;
  const read: Access = spec.reach
    ? { access: access.credential(spec.reach), errors: [...badQuery, 401, 403] }
    : readPermission
      ? { access: access.permission(readPermission, { vendor: spec.vendor }), errors: [...badQuery, 401, 403] }
      : { access: access.public(), errors: publicReadErrors.filter((status) => status !== 400 || badQuery.length) };
  const getRead: Access = readPermission && spec.readsOwn ? { ...read, access: access.credential(`\`${readPermission}\` reads any, except that ${spec.readsOwn}`) } : read;
  const write: Access = { access: spec.reach ? access.credential(spec.reach) : access.permission(`${spec.resource}:write`, { vendor: spec.vendor }), errors: writeErrors };
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
        request: { ...inParent, ...(spec.whole ? (spec.whole.query ? { query: spec.whole.query } : {}) : { query: listQuerySchema(spec.listQuery) }) },
        responses: {
          200: listResponse(spec.schema, spec.whole ? `The ${spec.nouns}.` : `A page of ${spec.nouns}.`),
          ...errorResponses(...read.errors, ...parentMissing),
        },
      }),
    create: () =>
      apiRoute({
        ...head('create', 'post', spec.path, `Create a ${spec.noun}`, slugNote),
        policy: { access: write.access },
        request: { ...inParent, body: jsonBody(spec.createBody, `The ${spec.noun}.`) },
        responses: { 201: successResponse(created.schema, created.description), ...errorResponses(...write.errors, ...parentMissing, ...conflict('create')) },
      }),
    get: () =>
      apiRoute({
        ...head('get', 'get', item, `Get a ${spec.noun} by ${key}${slug ? ` or ${slug.field}` : ''}`),
        policy: { ...spec.readPolicy, access: getRead.access },
        request: { params, ...(readQuery ? { query: readQuery } : {}) },
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

/** The parent's parameter schema, after checking the collection's path holds it before its own segment. */
function parentParamsOf(path: string, parent: CrudParent): z.ZodObject {
  const [name, more] = Object.keys(parent.params.shape);
  if (!name || more !== undefined) throw new Error(`crudRoutes ${path}: a parent's params have exactly one key`);
  if (!new RegExp(`/\\{${name}\\}/[^{}]+$`).test(path)) throw new Error(`crudRoutes ${path}: a nested collection's path ends in /{${name}}/<collection>`);
  return parent.params;
}

/** The routes `crudRoutes` can declare, for code that takes any collection's. */
export type CrudRoutes = Partial<ReturnType<typeof crudRoutes>>;
