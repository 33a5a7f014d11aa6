import { createRoute, z } from '@hono/zod-openapi';
import type { RouteConfig, RouteHandler } from '@hono/zod-openapi';
import type { AppEnv } from '../env';
import { DETAIL_CODES, type DetailCode, ERROR_STATUS, type ErrorCode, NOT_APPLICABLE_CONDITIONS } from './errors';
import { fieldSelection, MAX_LIMIT } from './query/list-query';
import { idempotent } from '../middleware/idempotency';
import { policyExtensions, policyOf, ROUTE_POLICY, type RoutePolicy } from './route-policy';
import { accessNote, type RouteAccess, securityOf } from './route-access';
import { accessGuard } from '../middleware/access-guard';

/** Shared pieces of every route declaration: envelopes, error responses, common parameters. */

/**
 * A handler of route `R`, its answer checked against the schemas `R` declares (ok()/created()/list()
 * type their bodies). A list's `text/csv` form is made from its JSON by middleware
 * (src/middleware/csv-export.ts), never by the handler, so the handler is held to the JSON alone:
 * left in, the CSV content would let the handler answer any Response.
 */
export type AppRouteHandler<R extends RouteConfig> = RouteHandler<JsonAnswers<R>, AppEnv>;

type JsonAnswers<R extends RouteConfig> = Omit<R, 'responses'> & {
  responses: {
    [S in keyof R['responses']]: R['responses'][S] extends { content: infer C } ? Omit<R['responses'][S], 'content'> & { content: Omit<C, 'text/csv'> } : R['responses'][S];
  };
};

const DETAIL_CODE_LIST = (Object.entries(DETAIL_CODES) as [DetailCode, string][]).map(([code, meaning]) => `\`${code}\`: ${meaning}`).join('; ');

export const ErrorDetailSchema = z
  .object({
    field: z
      .string()
      .optional()
      .openapi({ description: 'The dotted path of the field, parameter or header (`variants.0.sku`, `limit`, `Idempotency-Key`); absent when the problem is about no one field.' }),
    code: z.enum(Object.keys(DETAIL_CODES) as [DetailCode, ...DetailCode[]]).openapi({ description: `What kind of problem, for programs. ${DETAIL_CODE_LIST}.` }),
    message: z.string().openapi({ description: 'For a person, starting with the field name so it reads alone: "price must be 0 or more".' }),
    condition: z
      .enum(NOT_APPLICABLE_CONDITIONS)
      .optional()
      .openapi({ description: 'Only with `COUPON_NOT_APPLICABLE`: which condition of the code failed, for programs (docs/promotions.md, "Why a code does not apply").' }),
  })
  .openapi('ErrorDetail', { example: { field: 'price', code: 'too_small', message: 'price must be 0 or more' } });

export const ErrorSchema = z
  .object({
    success: z.literal(false),
    error: z.object({
      code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]),
      message: z.string(),
      details: z.array(ErrorDetailSchema).openapi({
        description: 'Always a list: one entry per invalid field, parameter or header; empty when the error is about no one field (401, 403, 404, 429, 500).',
      }),
    }),
  })
  .openapi('Error');

export const PaginationSchema = z
  .object({
    page: z.int(),
    limit: z.int().max(MAX_LIMIT),
    total: z.int(),
    totalPages: z.int(),
    hasNext: z.boolean(),
    hasPrev: z.boolean(),
  })
  .openapi('Pagination');

export function jsonBody<T extends z.ZodType>(schema: T, description: string) {
  return { content: { 'application/json': { schema } }, description, required: true };
}

export function successResponse<T extends z.ZodType>(data: T, description: string) {
  return {
    content: { 'application/json': { schema: z.object({ success: z.literal(true), data, message: z.string() }) } },
    description,
  };
}

/** Every list's CSV form (src/middleware/csv-export.ts). */
const CsvExport = z.string().openapi('CsvExport', {
  description:
    'With `format=csv` or `Accept: text/csv`: a header row of column names, then one row per item matching the filters (RFC 4180, UTF-8). ' +
    'Money is in major units as in JSON; a text cell starting with =, +, -, @, a tab or a carriage return is prefixed with an apostrophe so spreadsheets do not run it. ' +
    '`X-Total-Count` gives the number of items.',
  example: 'id,name,price\r\nprod_01JD0000000000000000000000,Mug,12.5\r\n',
});

export function listResponse<T extends z.ZodType>(item: T, description: string, beside: Record<string, z.ZodType> = {}) {
  return {
    content: {
      'application/json': {
        schema: z.object({ success: z.literal(true), data: z.array(item), message: z.string(), pagination: PaginationSchema, ...beside }),
      },
      'text/csv': { schema: CsvExport },
    },
    description,
  };
}

export const noContentResponse = { description: 'Deleted; no body.' };

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'INVALID_REQUEST: malformed JSON or a bad query parameter or header (details name it).',
  401: 'AUTHENTICATION_ERROR: the credential is missing (where one is needed), malformed, unknown, expired or revoked.',
  403: 'AUTHORIZATION_ERROR: the credential may not do this.',
  404: 'NOT_FOUND: no such resource.',
  409: 'CONFLICT: a duplicate unique value or a state that forbids the change.',
  413: 'INVALID_REQUEST: the body is larger than the limit.',
  415: 'INVALID_REQUEST: the body is not application/json.',
  422: 'VALIDATION_ERROR: the body fails its schema; details list every invalid field.',
  429: 'RATE_LIMITED: too many requests.',
  500: 'INTERNAL_ERROR: unexpected failure; the body carries no internals.',
  502: 'PROVIDER_ERROR: the payment provider did not answer; nothing is lost, the row stays pending (retry with the same Idempotency-Key).',
};

/** The error responses a route can give, all in the one error envelope (`apiRoute` adds 429 to every route its policy counts). */
export function errorResponses(...statuses: (keyof typeof ERROR_DESCRIPTIONS)[]) {
  return errorResponsesOf(statuses);
}

function errorResponsesOf(statuses: number[]) {
  const all = [...new Set([...statuses, 500])].sort();
  return Object.fromEntries(all.map((status) => [status, { content: { 'application/json': { schema: ErrorSchema } }, description: ERROR_DESCRIPTIONS[status]! }])) as Record<
    number,
    { content: { 'application/json': { schema: typeof ErrorSchema } }; description: string }
  >;
}

/** Errors every public read can give (a present but bad credential is 401 even there). */
export const publicReadErrors = [400, 401] as const;
/** Errors every write can give. */
export const writeErrors = [401, 403, 413, 415, 422] as const;

/** `{id}` in a path: an id (or, where the route says so, a slug). */
export const IdParams = z.object({
  id: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'id', in: 'path' }, example: 'prod_01JD0000000000000000000000' }),
});

/**
 * The names of an operation: its `operationId` (camelCase verbNoun, unique in the document) and the
 * client libraries' resource group and method for it (`x-sdk-group`, `x-sdk-method`; the pair is
 * unique too). scripts/clients/model.mjs reads them; test/openapi.node.test.ts checks they are unique.
 */
export function operation(group: string, method: string, operationId: string) {
  return { operationId, 'x-sdk-group': group, 'x-sdk-method': method } as const;
}

export type OperationNames = ReturnType<typeof operation>;

/**
 * The names of the five operations of a collection, from its group and its nouns in PascalCase:
 * `crudOperations('products.variants', 'ProductVariant', 'ProductVariants')` names
 * listProductVariants, createProductVariant, getProductVariant, updateProductVariant and
 * deleteProductVariant, methods list, create, get, update and delete of `products.variants`.
 */
export function crudOperations(group: string, singular: string, plural: string) {
  return {
    list: operation(group, 'list', `list${plural}`),
    create: operation(group, 'create', `create${singular}`),
    get: operation(group, 'get', `get${singular}`),
    update: operation(group, 'update', `update${singular}`),
    delete: operation(group, 'delete', `delete${singular}`),
  };
}

type SecurityRequirements = NonNullable<RouteConfig['security']>;

/**
 * `createRoute` for this API: every operation names itself (`operation(...)`), has a tag and declares
 * who may call it (`policy.access`, src/lib/route-access.ts), from which its OpenAPI `security`, its
 * `x-access`, a sentence of its description and its guard (run before its own middleware) are
 * derived; the types refuse a route without it. An operation whose query takes `fields` is marked
 * `x-fields-selection: true` (src/lib/query/list-query.ts). The rest of `policy` says what the
 * middleware before routing does with its requests (src/lib/route-policy.ts: body limit, rate
 * limiting, caching, idempotency; each field defaulted), and the operation shows it (`x-rate-limited`,
 * `x-cache`, `x-idempotency`; `x-max-body-bytes` when the document is built). A counted operation can
 * answer 429; an idempotent one runs `idempotent()` after its own middleware.
 */
export function apiRoute<
  P extends string,
  R extends Omit<RouteConfig, 'path' | 'security'> & { path: P } & OperationNames & { tags: string[] } & { policy: Partial<RoutePolicy> & { access: RouteAccess } },
>(config: R) {
  const { policy: declared, ...route } = config;
  const policy = policyOf(declared);
  const responses = policy.counted ? { ...route.responses, ...errorResponsesOf([429]) } : route.responses;
  const guard = accessGuard(declared.access);
  const withGuard = guard ? [guard, ...asList(route.middleware)] : asList(route.middleware);
  const middleware = policy.idempotency ? [...withGuard, idempotent()] : withGuard;
  const note = accessNote(declared.access);
  const description = route.description?.includes(note) ? route.description : [route.description, note].filter(Boolean).join(' ');
  return createRoute<P, R & { security: SecurityRequirements }>({
    ...route,
    ...(middleware.length ? { middleware } : {}),
    ...(description ? { description } : {}),
    security: securityOf(declared.access),
    responses,
    ...fieldSelection(config.request?.query),
    ...policyExtensions(policy),
    [ROUTE_POLICY]: policy,
  } as unknown as R & { security: SecurityRequirements });
}

const asList = <T>(value: T | readonly T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? [...value] : [value as T]);
