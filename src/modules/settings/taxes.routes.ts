import { requirePermission } from '../../middleware/auth';
import {
  apiRoute,
  bearerAuth,
  crudOperations,
  errorResponses,
  IdParams,
  jsonBody,
  listResponse,
  noContentResponse,
  successResponse,
  writeErrors,
} from '../../lib/openapi';
import { listQuerySchema, readQuerySchema } from '../../lib/query';
import { taxRateListQuery } from './taxes.query';
import { CreateTaxRateBody, TaxRateSchema, UpdateTaxRateBody } from './taxes.schemas';

const tags = ['Tax rates'];
const names = crudOperations('taxRates', 'TaxRate', 'TaxRates');
const canRead = requirePermission('settings:read');
const canWrite = requirePermission('settings:write');
const readErrors = [400, 401, 403] as const;
const placeNote = 'One rate per country and region (a rate without region covers the rest of the country); a second one for the same place is 409.';

export const listTaxRates = apiRoute({
  ...names.list,
  method: 'get',
  path: '/settings/taxes',
  tags,
  summary: 'List tax rates',
  description: 'Needs `settings:read`.',
  security: bearerAuth,
  middleware: [canRead] as const,
  request: { query: listQuerySchema(taxRateListQuery) },
  responses: { 200: listResponse(TaxRateSchema, 'A page of tax rates.'), ...errorResponses(...readErrors) },
});

export const getTaxRate = apiRoute({
  ...names.get,
  method: 'get',
  path: '/settings/taxes/{id}',
  tags,
  summary: 'Get a tax rate',
  description: 'Needs `settings:read`.',
  security: bearerAuth,
  middleware: [canRead] as const,
  request: { params: IdParams, query: readQuerySchema(taxRateListQuery.selectable) },
  responses: { 200: successResponse(TaxRateSchema, 'The tax rate.'), ...errorResponses(...readErrors, 404) },
});

export const createTaxRate = apiRoute({
  ...names.create,
  method: 'post',
  path: '/settings/taxes',
  tags,
  summary: 'Create a tax rate',
  description: `${placeNote} Needs \`settings:write\`.`,
  security: bearerAuth,
  middleware: [canWrite] as const,
  request: { body: jsonBody(CreateTaxRateBody, 'The tax rate.') },
  responses: { 201: successResponse(TaxRateSchema, 'The created tax rate.'), ...errorResponses(...writeErrors, 409) },
});

export const updateTaxRate = apiRoute({
  ...names.update,
  method: 'patch',
  path: '/settings/taxes/{id}',
  tags,
  summary: 'Update a tax rate',
  description: `${placeNote} Orders already placed keep the tax they were charged. Needs \`settings:write\`.`,
  security: bearerAuth,
  middleware: [canWrite] as const,
  request: { params: IdParams, body: jsonBody(UpdateTaxRateBody, 'Fields to change.') },
  responses: { 200: successResponse(TaxRateSchema, 'The updated tax rate.'), ...errorResponses(...writeErrors, 404, 409) },
});

export const deleteTaxRate = apiRoute({
  ...names.delete,
  method: 'delete',
  path: '/settings/taxes/{id}',
  tags,
  summary: 'Delete a tax rate',
  description: 'Orders already placed keep the tax they were charged. Needs `settings:write`.',
  security: bearerAuth,
  middleware: [canWrite] as const,
  request: { params: IdParams },
  responses: { 204: noContentResponse, ...errorResponses(401, 403, 404) },
});
