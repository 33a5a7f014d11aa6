import { access } from '../../lib/route-access';
import { z } from '@hono/zod-openapi';
import { apiRoute, crudOperations, errorResponses, jsonBody, listResponse, noContentResponse, successResponse, writeErrors } from '../../lib/openapi';
import { fieldTreeFromSchema, readQuerySchema } from '../../lib/query';
import { AddressSchema, CreateAddressBody, UpdateAddressBody } from './addresses.schemas';
import { MAX_ADDRESSES_PER_CUSTOMER } from './addresses.service';
import { CustomerParams } from './customers.routes';

const tags = ['Customers'];
const names = crudOperations('customers.addresses', 'CustomerAddress', 'CustomerAddresses');
const AddressParams = CustomerParams.extend({
  addressId: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: 'addressId', in: 'path' }, example: 'addr_01JD0000000000000000000000' }),
});
const addressFields = readQuerySchema(fieldTreeFromSchema(AddressSchema));
const reach = "the customer itself (or `me`) and staff with `customers:read` / `customers:write`; another customer's address is 404.";
const defaults = 'Setting `isDefaultShipping` or `isDefaultBilling` takes it away from the other addresses of the customer in the same write.';

export const listAddresses = apiRoute({
  ...names.list,
  method: 'get',
  path: '/customers/{id}/addresses',
  tags,
  summary: "List a customer's addresses",
  description: `Every address (at most ${MAX_ADDRESSES_PER_CUSTOMER}) in one page, oldest first.`,
  policy: { access: access.credential(reach) },
  request: { params: CustomerParams, query: addressFields },
  responses: { 200: listResponse(AddressSchema, 'The addresses.'), ...errorResponses(400, 401, 403, 404) },
});

export const createAddress = apiRoute({
  ...names.create,
  method: 'post',
  path: '/customers/{id}/addresses',
  tags,
  summary: 'Add an address',
  description: `${defaults} A customer has at most ${MAX_ADDRESSES_PER_CUSTOMER} addresses (409 beyond).`,
  policy: { access: access.credential(reach) },
  request: { params: CustomerParams, body: jsonBody(CreateAddressBody, 'The address.') },
  responses: { 201: successResponse(AddressSchema, 'The created address.'), ...errorResponses(...writeErrors, 404, 409) },
});

export const getAddress = apiRoute({
  ...names.get,
  method: 'get',
  path: '/customers/{id}/addresses/{addressId}',
  tags,
  summary: 'Get an address',
  policy: { access: access.credential(reach) },
  request: { params: AddressParams, query: addressFields },
  responses: { 200: successResponse(AddressSchema, 'The address.'), ...errorResponses(400, 401, 403, 404) },
});

export const updateAddress = apiRoute({
  ...names.update,
  method: 'patch',
  path: '/customers/{id}/addresses/{addressId}',
  tags,
  summary: 'Update an address',
  description: defaults,
  policy: { access: access.credential(reach) },
  request: { params: AddressParams, body: jsonBody(UpdateAddressBody, 'Fields to change.') },
  responses: { 200: successResponse(AddressSchema, 'The updated address.'), ...errorResponses(...writeErrors, 404) },
});

export const deleteAddress = apiRoute({
  ...names.delete,
  method: 'delete',
  path: '/customers/{id}/addresses/{addressId}',
  tags,
  summary: 'Delete an address',
  policy: { access: access.credential(reach) },
  request: { params: AddressParams },
  responses: { 204: noContentResponse, ...errorResponses(401, 403, 404) },
});
