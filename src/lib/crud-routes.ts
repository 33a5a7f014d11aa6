import type { z } from '@hono/zod-openapi';
import { requirePermission } from '../middleware/auth';
import {
  apiRoute,
  bearerAuth,
  crudOperations,
  errorResponses,
  IdParams,
  jsonBody,
  listResponse,
  noContentResponse,
  optionalAuth,
  publicReadErrors,
  successResponse,
  writeErrors,
} from './openapi';
import type { RoutePolicy } from './route-policy';
import { type AnyFilters, type ListQueryConfig, listQuerySchema, readQuerySchema } from './query';

interface CrudSpec<S extends z.ZodType, C extends z.ZodType, U extends z.ZodType, F extends AnyFilters> {
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
  updateBody: U;
  listQuery: ListQueryConfig<F>;
  /** Permission resource: writes need `<resource>:write`. */
  resource: string;
  /** Who reads: anyone (`public`, the default), or only holders of `<resource>:read` (`permission`). */
  reads?: 'public' | 'permission';
  /** False when nothing can refuse a delete, so it documents no 409. */
  deleteConflicts?: boolean;
  /** Extra words per route (events emitted, rules). */
  notes?: Partial<Record<'list' | 'create' | 'get' | 'update' | 'delete', string>>;
  /** The policy of the two reads, list and get (src/lib/route-policy.ts): `{ cache: 'catalogue' }` for catalogue and content. Writes take the defaults. */
  readPolicy?: Partial<RoutePolicy>;
  /**
   * The unique readable key an item is also found by (`slug` by default; null for none), and the
   * field it is made from when omitted (`name`; none for a key the caller always gives, like a code).
   */
  slug?: { field: string; from?: string } | null;
}

/**
 * The five routes of a staff-write collection (list, create, get by id or slug, update, delete),
 * public-read or read with a permission, declared once so every such resource documents and guards
 * them the same way.
 */
export function crudRoutes<S extends z.ZodType, C extends z.ZodType, U extends z.ZodType, F extends AnyFilters>(spec: CrudSpec<S, C, U, F>) {
  const tags = [spec.tag];
  const names = crudOperations(spec.sdk.group, spec.sdk.singular, spec.sdk.plural);
  const canWrite = requirePermission(`${spec.resource}:write`);
  const item = `${spec.path}/{id}`;
  const writeNote = `Needs \`${spec.resource}:write\`.`;
  const readPermission = spec.reads === 'permission' ? `${spec.resource}:read` : undefined;
  const read = readPermission
    ? { security: bearerAuth, middleware: [requirePermission(readPermission)], errors: [400, 401, 403] as const, note: `Needs \`${readPermission}\`.` }
    : { security: optionalAuth, errors: publicReadErrors, note: '' };
  const note = (key: keyof NonNullable<CrudSpec<S, C, U, F>['notes']>, extra = '') => [spec.notes?.[key], extra].filter(Boolean).join(' ');
  const slug = spec.slug === undefined ? { field: 'slug', from: 'name' } : spec.slug;
  const slugNote = slug?.from ? `Without \`${slug.field}\`, one is made from the ${slug.from}. ` : '';
  return {
    list: apiRoute({
      ...names.list,
      method: 'get',
      path: spec.path,
      tags,
      summary: `List ${spec.nouns}`,
      description: note('list', read.note),
      security: read.security,
      ...(read.middleware ? { middleware: read.middleware } : {}),
      policy: spec.readPolicy,
      request: { query: listQuerySchema(spec.listQuery) },
      responses: { 200: listResponse(spec.schema, `A page of ${spec.nouns}.`), ...errorResponses(...read.errors) },
    }),
    create: apiRoute({
      ...names.create,
      method: 'post',
      path: spec.path,
      tags,
      summary: `Create a ${spec.noun}`,
      description: note('create', `${slugNote}${writeNote}`),
      security: bearerAuth,
      middleware: [canWrite] as const,
      request: { body: jsonBody(spec.createBody, `The ${spec.noun}.`) },
      responses: { 201: successResponse(spec.schema, `The created ${spec.noun}.`), ...errorResponses(...writeErrors, 409) },
    }),
    get: apiRoute({
      ...names.get,
      method: 'get',
      path: item,
      tags,
      summary: `Get a ${spec.noun} by id${slug ? ` or ${slug.field}` : ''}`,
      description: note('get', read.note),
      security: read.security,
      ...(read.middleware ? { middleware: read.middleware } : {}),
      policy: spec.readPolicy,
      request: { params: IdParams, query: readQuerySchema(spec.listQuery.selectable) },
      responses: { 200: successResponse(spec.schema, `The ${spec.noun}.`), ...errorResponses(...read.errors, 404) },
    }),
    update: apiRoute({
      ...names.update,
      method: 'patch',
      path: item,
      tags,
      summary: `Update a ${spec.noun}`,
      description: note('update', writeNote),
      security: bearerAuth,
      middleware: [canWrite] as const,
      request: { params: IdParams, body: jsonBody(spec.updateBody, 'Fields to change.') },
      responses: { 200: successResponse(spec.schema, `The updated ${spec.noun}.`), ...errorResponses(...writeErrors, 404, 409) },
    }),
    delete: apiRoute({
      ...names.delete,
      method: 'delete',
      path: item,
      tags,
      summary: `Delete a ${spec.noun}`,
      description: note('delete', writeNote),
      security: bearerAuth,
      middleware: [canWrite] as const,
      request: { params: IdParams },
      responses: { 204: noContentResponse, ...errorResponses(...(spec.deleteConflicts === false ? ([401, 403, 404] as const) : ([401, 403, 404, 409] as const))) },
    }),
  };
}
