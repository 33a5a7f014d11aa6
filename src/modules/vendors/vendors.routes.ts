import { requireCredential, requirePermission } from '../../middleware/auth';
import { apiRoute, bearerAuth, crudOperations, errorResponses, IdParams, jsonBody, listResponse, noContentResponse, successResponse, writeErrors } from '../../lib/openapi';
import { listQuerySchema, readQuerySchema } from '../../lib/query';
import { vendorListQuery } from './vendors.query';
import { CreateVendorBody, UpdateVendorBody, VendorSchema } from './vendors.schemas';

const tags = ['Vendors'];
const names = crudOperations('vendors', 'Vendor', 'Vendors');
const canWrite = requirePermission('vendors:write');
const readErrors = [400, 401, 403] as const;

export const listVendors = apiRoute({
  ...names.list,
  method: 'get',
  path: '/vendors',
  tags,
  summary: 'List vendors',
  description: 'Needs `vendors:read`. A vendor user may not list vendors (403); it reads its own at `/api/vendors/{id}`.',
  security: bearerAuth,
  middleware: [requirePermission('vendors:read')] as const,
  request: { query: listQuerySchema(vendorListQuery) },
  responses: { 200: listResponse(VendorSchema, 'A page of vendors.'), ...errorResponses(...readErrors) },
});

export const createVendor = apiRoute({
  ...names.create,
  method: 'post',
  path: '/vendors',
  tags,
  summary: 'Create a vendor',
  description: 'Without `slug`, one is made from the name. Needs `vendors:write`.',
  security: bearerAuth,
  middleware: [canWrite] as const,
  request: { body: jsonBody(CreateVendorBody, 'The vendor.') },
  responses: { 201: successResponse(VendorSchema, 'The created vendor.'), ...errorResponses(...writeErrors, 409) },
});

export const getVendor = apiRoute({
  ...names.get,
  method: 'get',
  path: '/vendors/{id}',
  tags,
  summary: 'Get a vendor by id or slug',
  description: 'Needs `vendors:read`, except that a vendor user reads its own vendor; any other vendor is 404 to it.',
  security: bearerAuth,
  middleware: [requireCredential()] as const,
  request: { params: IdParams, query: readQuerySchema(vendorListQuery.selectable) },
  responses: { 200: successResponse(VendorSchema, 'The vendor.'), ...errorResponses(...readErrors, 404) },
});

export const updateVendor = apiRoute({
  ...names.update,
  method: 'patch',
  path: '/vendors/{id}',
  tags,
  summary: 'Update a vendor',
  description: 'Needs `vendors:write`.',
  security: bearerAuth,
  middleware: [canWrite] as const,
  request: { params: IdParams, body: jsonBody(UpdateVendorBody, 'Fields to change.') },
  responses: { 200: successResponse(VendorSchema, 'The updated vendor.'), ...errorResponses(...writeErrors, 404, 409) },
});

export const deleteVendor = apiRoute({
  ...names.delete,
  method: 'delete',
  path: '/vendors/{id}',
  tags,
  summary: 'Delete a vendor',
  description: '409 while the vendor still has users. Its products stay, without a vendor. Needs `vendors:write`.',
  security: bearerAuth,
  middleware: [canWrite] as const,
  request: { params: IdParams },
  responses: { 204: noContentResponse, ...errorResponses(401, 403, 404, 409) },
});
