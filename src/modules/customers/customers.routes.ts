import { access } from '../../lib/route-access';
import { z } from '@hono/zod-openapi';
import { apiRoute, crudOperations, errorResponses, jsonBody, listResponse, noContentResponse, successResponse, writeErrors } from '../../lib/openapi';
import { listQuerySchema, readQuerySchema } from '../../lib/query';
import { SELF_ID } from './customers.access';
import { customerListQuery } from './customers.query';
import { CreateCustomerBody, CustomerSchema, UpdateCustomerBody, UpdatedCustomerSchema } from './customers.schemas';

const tags = ['Customers'];
const names = crudOperations('customers', 'Customer', 'Customers');

export const CustomerParams = z.object({
  id: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'id', in: 'path' }, example: SELF_ID, description: `A customer id, or \`${SELF_ID}\` for the signed-in customer.` }),
});

const reach =
  'staff (`customers:read` to read, `customers:write` to change) reach every customer. A signed-in customer reaches only ' +
  `its own account (also as \`${SELF_ID}\`); any other id answers 404, as an unknown one does.`;

export const listCustomers = apiRoute({
  ...names.list,
  method: 'get',
  path: '/customers',
  tags,
  summary: 'List customers',
  description: 'Users with the role `customer`. Needs `customers:read` (or `customers:write`); customers themselves get 403.',
  policy: { access: access.permission('customers:read', { also: ['customers:write'] }) },
  request: { query: listQuerySchema(customerListQuery) },
  responses: { 200: listResponse(CustomerSchema, 'A page of customers.'), ...errorResponses(400, 401, 403) },
});

export const createCustomer = apiRoute({
  ...names.create,
  method: 'post',
  path: '/customers',
  tags,
  summary: 'Create a customer',
  description: 'Emits `customer.registered`. The email is unique across all users, compared case-insensitively (409).',
  policy: { access: access.permission('customers:write') },
  request: { body: jsonBody(CreateCustomerBody, 'The customer.') },
  responses: { 201: successResponse(CustomerSchema, 'The created customer.'), ...errorResponses(...writeErrors, 409) },
});

export const getCustomer = apiRoute({
  ...names.get,
  method: 'get',
  path: '/customers/{id}',
  tags,
  summary: 'Get a customer',
  description: `\`${SELF_ID}\` with an API key is 403: a key acts for no user.`,
  policy: { access: access.credential(reach) },
  request: { params: CustomerParams, query: readQuerySchema(customerListQuery.selectable) },
  responses: { 200: successResponse(CustomerSchema, 'The customer.'), ...errorResponses(400, 401, 403, 404) },
});

export const updateCustomer = apiRoute({
  ...names.update,
  method: 'patch',
  path: '/customers/{id}',
  tags,
  summary: 'Update a customer',
  description:
    `A customer may not change its own \`status\` (403). An email taken by another user is 409. The email is the sign-in ` +
    'identity: changing it retires every token of the account (and its unused password-reset links), whoever changes it. A customer ' +
    'changing its own email also sends `currentPassword` (422 naming it when missing or wrong, and nothing changes), and the answer ' +
    'carries `session`, a fresh token that replaces the one of the request; staff (`customers:write`) need no password, and the customer signs in again.',
  policy: { access: access.credential(reach) },
  request: { params: CustomerParams, body: jsonBody(UpdateCustomerBody, 'Fields to change.') },
  responses: { 200: successResponse(UpdatedCustomerSchema, 'The updated customer.'), ...errorResponses(...writeErrors, 404, 409) },
});

export const deleteCustomer = apiRoute({
  ...names.delete,
  method: 'delete',
  path: '/customers/{id}',
  tags,
  summary: 'Delete a customer',
  description: 'Deletes the account with its addresses; its tokens stop working at once. ' + '409 when other records must keep the customer: disable it instead.',
  policy: { access: access.credential('staff with `customers:write`; a customer deleting itself gets 403, another customer 404.') },
  request: { params: CustomerParams },
  responses: { 204: noContentResponse, ...errorResponses(401, 403, 404, 409) },
});
