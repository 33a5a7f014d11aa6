import { access } from '../../lib/route-access';
import { crudRoutes } from '../../lib/crud-routes';
import { apiRoute, errorResponses, IdParams, jsonBody, listResponse, noContentResponse, operation, successResponse, writeErrors } from '../../lib/openapi';
import { listQuerySchema } from '../../lib/query';
import { customerListQuery } from '../customers';
import { CustomerSchema } from '../customers/schemas';
import { customerGroupListQuery } from './customer-groups.query';
import { AddMembersBody, CreateCustomerGroupBody, CustomerGroupSchema, MemberParams, UpdateCustomerGroupBody } from './customer-groups.schemas';

const tag = 'Customer groups';

export const customerGroupRoutes = crudRoutes({
  path: '/customer-groups',
  tag,
  sdk: { group: 'customerGroups', singular: 'CustomerGroup', plural: 'CustomerGroups' },
  noun: 'customer group',
  nouns: 'customer groups',
  schema: CustomerGroupSchema,
  createBody: CreateCustomerGroupBody,
  updateBody: UpdateCustomerGroupBody,
  listQuery: customerGroupListQuery,
  resource: 'customers',
  reads: 'permission',
  slug: null,
  conflicts: ['create', 'update', 'delete'],
  notes: {
    list: 'By name by default.',
    create: 'A duplicate name is 409.',
    update: 'A name another group has is 409.',
    delete: "Takes the group's memberships with it (the customers stay). Refused with 409 while a price list is for the group.",
  },
});

export const listMembers = apiRoute({
  ...operation('customerGroups.members', 'list', 'listCustomerGroupMembers'),
  method: 'get',
  path: '/customer-groups/{id}/members',
  tags: [tag],
  summary: "List a customer group's members",
  description: 'The customers in the group, as `GET /api/customers?group={id}` lists them (the same filters, sorts and fields). 404 for an unknown group.',
  policy: { access: access.permission('customers:read', { also: ['customers:write'] }) },
  request: { params: IdParams, query: listQuerySchema(customerListQuery) },
  responses: { 200: listResponse(CustomerSchema, 'A page of the members.'), ...errorResponses(400, 401, 403, 404) },
});

export const addMembers = apiRoute({
  ...operation('customerGroups.members', 'add', 'addCustomerGroupMembers'),
  method: 'post',
  path: '/customer-groups/{id}/members',
  tags: [tag],
  summary: 'Add customers to a customer group',
  description:
    'Customers already in the group stay as they are; 422 naming the ids that are not customers (and nobody is added). Prices of the price lists for the group apply to them at once.',
  policy: { access: access.permission('customers:write') },
  request: { params: IdParams, body: jsonBody(AddMembersBody, 'The customers to add.') },
  responses: { 200: successResponse(CustomerGroupSchema, 'The group, with its new member count.'), ...errorResponses(...writeErrors, 404, 409) },
});

export const removeMember = apiRoute({
  ...operation('customerGroups.members', 'remove', 'removeCustomerGroupMember'),
  method: 'delete',
  path: '/customer-groups/{id}/members/{customerId}',
  tags: [tag],
  summary: 'Remove a customer from a customer group',
  description: "The group's price lists stop applying to the customer at once. 404 when the group does not exist or the customer is not in it.",
  policy: { access: access.permission('customers:write') },
  request: { params: MemberParams },
  responses: { 204: noContentResponse, ...errorResponses(401, 403, 404) },
});
