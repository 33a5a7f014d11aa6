import { requirePermission } from '../../middleware/auth';
import {
  apiRoute,
  bearerAuth,
  crudOperations,
  errorResponses,
  jsonBody,
  listResponse,
  noContentResponse,
  publicReadErrors,
  successResponse,
  writeErrors,
  optionalAuth,
} from '../../lib/openapi';
import { listQuerySchema, readQuerySchema } from '../../lib/query';
import { currencyListQuery } from './currencies.query';
import { CreateCurrencyBody, CurrencyParams, CurrencySchema, UpdateCurrencyBody } from './currencies.schemas';

const tags = ['Currencies'];
const names = crudOperations('currencies', 'Currency', 'Currencies');
const canWrite = requirePermission('settings:write');
const publicNote = 'Public: without a credential (or without `settings:read`/`settings:write`) only enabled currencies exist.';

export const listCurrencies = apiRoute({
  ...names.list,
  method: 'get',
  path: '/settings/currencies',
  tags,
  summary: 'List currencies',
  description: `${publicNote} Staff see every currency and may filter on \`enabled\`. Ties end on \`code\`, the id of a currency.`,
  security: optionalAuth,
  request: { query: listQuerySchema(currencyListQuery) },
  responses: { 200: listResponse(CurrencySchema, 'A page of currencies.'), ...errorResponses(...publicReadErrors) },
});

export const getCurrency = apiRoute({
  ...names.get,
  method: 'get',
  path: '/settings/currencies/{code}',
  tags,
  summary: 'Get a currency by code',
  description: `The code in any case. ${publicNote}`,
  security: optionalAuth,
  request: { params: CurrencyParams, query: readQuerySchema(currencyListQuery.selectable) },
  responses: { 200: successResponse(CurrencySchema, 'The currency.'), ...errorResponses(...publicReadErrors, 404) },
});

export const createCurrency = apiRoute({
  ...names.create,
  method: 'post',
  path: '/settings/currencies',
  tags,
  summary: 'Add a currency',
  description: 'A duplicate code is 409. Needs `settings:write`.',
  security: bearerAuth,
  middleware: [canWrite] as const,
  request: { body: jsonBody(CreateCurrencyBody, 'The currency.') },
  responses: { 201: successResponse(CurrencySchema, 'The added currency.'), ...errorResponses(...writeErrors, 409) },
});

export const updateCurrency = apiRoute({
  ...names.update,
  method: 'patch',
  path: '/settings/currencies/{code}',
  tags,
  summary: 'Update a currency',
  description:
    'The default currency cannot be disabled, its exchange rate is always 1 and its minor units cannot change, since stored amounts are its minor units (409). Needs `settings:write`.',
  security: bearerAuth,
  middleware: [canWrite] as const,
  request: { params: CurrencyParams, body: jsonBody(UpdateCurrencyBody, 'Fields to change.') },
  responses: { 200: successResponse(CurrencySchema, 'The updated currency.'), ...errorResponses(...writeErrors, 404, 409) },
});

export const deleteCurrency = apiRoute({
  ...names.delete,
  method: 'delete',
  path: '/settings/currencies/{code}',
  tags,
  summary: 'Delete a currency',
  description: 'Refused with 409 for the default currency and for a currency that carts or orders are in (disable it instead). Needs `settings:write`.',
  security: bearerAuth,
  middleware: [canWrite] as const,
  request: { params: CurrencyParams },
  responses: { 204: noContentResponse, ...errorResponses(401, 403, 404, 409) },
});
