import { access } from '../../lib/route-access';
import { z } from '@hono/zod-openapi';
import { apiRoute, crudOperations, errorResponses, IdParams, jsonBody, listResponse, noContentResponse, successResponse, writeErrors } from '../../lib/openapi';
import { CreateShippingMethodBody, ShippingMethodSchema, UpdateShippingMethodBody } from './methods.schemas';

const tags = ['Shipping'];
const names = crudOperations('shippingZones.methods', 'ShippingMethod', 'ShippingMethods');
const path = '/settings/shipping-zones/{id}/methods';
const item = `${path}/{methodId}`;
const ZoneParams = IdParams.extend({ id: IdParams.shape.id.openapi({ param: { name: 'id', in: 'path' }, example: 'szone_01JD0000000000000000000000', description: 'The zone.' }) });
const MethodParams = ZoneParams.extend({
  methodId: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'methodId', in: 'path' }, example: 'smeth_01JD0000000000000000000000' }),
});
const kept = 'Orders already placed keep the method and charge they were placed with; carts are priced anew.';

export const listShippingMethods = apiRoute({
  ...names.list,
  method: 'get',
  path,
  tags,
  summary: "List a zone's shipping methods",
  description: 'Every method of the zone, active or not, in one page, by `position`.',
  policy: { access: access.permission('settings:read') },
  request: { params: ZoneParams },
  responses: { 200: listResponse(ShippingMethodSchema, 'The methods.'), ...errorResponses(401, 403, 404) },
});

export const createShippingMethod = apiRoute({
  ...names.create,
  method: 'post',
  path,
  tags,
  summary: 'Add a shipping method to a zone',
  description:
    "Bands must ascend without duplicates; amounts are major units of the default currency with at most its decimals, and in `currencyRates` of the entry's currency " +
    '(a currency of the store, not the default, once each), with at most its decimals (422 otherwise). A zone holds at most 20 methods (409 past that).',
  policy: { access: access.permission('settings:write') },
  request: { params: ZoneParams, body: jsonBody(CreateShippingMethodBody, 'The method.') },
  responses: { 201: successResponse(ShippingMethodSchema, 'The created method.'), ...errorResponses(...writeErrors, 404, 409) },
});

export const getShippingMethod = apiRoute({
  ...names.get,
  method: 'get',
  path: item,
  tags,
  summary: 'Get a shipping method',
  policy: { access: access.permission('settings:read') },
  request: { params: MethodParams },
  responses: { 200: successResponse(ShippingMethodSchema, 'The method.'), ...errorResponses(401, 403, 404) },
});

export const updateShippingMethod = apiRoute({
  ...names.update,
  method: 'patch',
  path: item,
  tags,
  summary: 'Update a shipping method',
  description: `\`rate\` is replaced whole, and so is \`currencyRates\` (\`[]\` removes them). ${kept} Needs \`settings:write\`.`,
  policy: { access: access.permission('settings:write') },
  request: { params: MethodParams, body: jsonBody(UpdateShippingMethodBody, 'Fields to change.') },
  responses: { 200: successResponse(ShippingMethodSchema, 'The updated method.'), ...errorResponses(...writeErrors, 404) },
});

export const deleteShippingMethod = apiRoute({
  ...names.delete,
  method: 'delete',
  path: item,
  tags,
  summary: 'Delete a shipping method',
  description: `A cart that chose it ships by the cheapest method left. ${kept} Needs \`settings:write\`.`,
  policy: { access: access.permission('settings:write') },
  request: { params: MethodParams },
  responses: { 204: noContentResponse, ...errorResponses(401, 403, 404) },
});
