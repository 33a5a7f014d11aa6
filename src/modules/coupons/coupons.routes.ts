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
import { couponListQuery } from './coupons.query';
import { CouponSchema, CreateCouponBody, UpdateCouponBody } from './coupons.schemas';

const tags = ['Coupons'];
const names = crudOperations('coupons', 'Coupon', 'Coupons');
const canRead = requirePermission('coupons:read');
const canWrite = requirePermission('coupons:write');
const readErrors = [400, 401, 403] as const;
const rules =
  '`value` is a percent for `percentage` and an amount in major units of the store\'s default currency for `fixed` (as is `minSubtotal`). ' +
  '`endsAt` must be after `startsAt`; `productIds` and `categoryIds` must exist (422 naming the missing ids). A duplicate code, in any case, is 409.';

export const listCoupons = apiRoute({
  ...names.list,
  method: 'get',
  path: '/coupons',
  tags,
  summary: 'List coupons',
  description: 'Newest first by default. `status` is computed at request time. Needs `coupons:read`.',
  security: bearerAuth,
  middleware: [canRead] as const,
  request: { query: listQuerySchema(couponListQuery) },
  responses: { 200: listResponse(CouponSchema, 'A page of coupons.'), ...errorResponses(...readErrors) },
});

export const createCoupon = apiRoute({
  ...names.create,
  method: 'post',
  path: '/coupons',
  tags,
  summary: 'Create a coupon',
  description: `${rules} Needs \`coupons:write\`.`,
  security: bearerAuth,
  middleware: [canWrite] as const,
  request: { body: jsonBody(CreateCouponBody, 'The coupon.') },
  responses: { 201: successResponse(CouponSchema, 'The created coupon.'), ...errorResponses(...writeErrors, 409) },
});

export const getCoupon = apiRoute({
  ...names.get,
  method: 'get',
  path: '/coupons/{id}',
  tags,
  summary: 'Get a coupon by id or code',
  description: 'The code in any case. Needs `coupons:read`.',
  security: bearerAuth,
  middleware: [canRead] as const,
  request: { params: IdParams, query: readQuerySchema(couponListQuery.selectable) },
  responses: { 200: successResponse(CouponSchema, 'The coupon.'), ...errorResponses(...readErrors, 404) },
});

export const updateCoupon = apiRoute({
  ...names.update,
  method: 'patch',
  path: '/coupons/{id}',
  tags,
  summary: 'Update a coupon',
  description: `By id or code. ${rules} Changing \`type\` needs a new \`value\`; \`usageLimit\` cannot go below \`timesUsed\` (422). Orders already placed keep their discount. Needs \`coupons:write\`.`,
  security: bearerAuth,
  middleware: [canWrite] as const,
  request: { params: IdParams, body: jsonBody(UpdateCouponBody, 'Fields to change.') },
  responses: { 200: successResponse(CouponSchema, 'The updated coupon.'), ...errorResponses(...writeErrors, 404, 409) },
});

export const deleteCoupon = apiRoute({
  ...names.delete,
  method: 'delete',
  path: '/coupons/{id}',
  tags,
  summary: 'Delete a coupon',
  description: 'By id or code. A coupon that has been used is refused with 409: deactivate it (`active: false`) instead. Needs `coupons:write`.',
  security: bearerAuth,
  middleware: [canWrite] as const,
  request: { params: IdParams },
  responses: { 204: noContentResponse, ...errorResponses(401, 403, 404, 409) },
});
