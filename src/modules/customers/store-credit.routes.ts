import { access } from '../../lib/route-access';
import { z } from '@hono/zod-openapi';
import { apiRoute, errorResponses, jsonBody, listResponse, operation, successResponse, writeErrors } from '../../lib/openapi';
import { listQuerySchema } from '../../lib/query';
import { CustomerParams } from './customers.routes';
import { storeCreditListQuery } from './store-credit.query';
import { AdjustStoreCreditBody, StoreCreditBalanceSchema, StoreCreditEntrySchema } from './store-credit.schemas';

const tags = ['Customers'];

export const getStoreCredit = apiRoute({
  ...operation('customers.credit', 'get', 'getCustomerStoreCredit'),
  method: 'get',
  path: '/customers/{id}/credit',
  tags,
  summary: "A customer's store credit",
  description:
    "The customer's store credit: `balances`, one per currency it has held credit in (never below zero), beside a page of its ledger's entries, newest first, each " +
    'with its reason and the order, refund, return or payment it came from. Credit comes from refunds to store credit and staff adjustments, and is spent by ' +
    '`store_credit` payments.',
  policy: { access: access.credential('the customer itself (or `me`), and staff with `store-credit:read` or `store-credit:write`; another customer is 404.') },
  request: { params: CustomerParams, query: listQuerySchema(storeCreditListQuery) },
  responses: {
    200: listResponse(StoreCreditEntrySchema, 'The balances and a page of entries.', { balances: z.array(StoreCreditBalanceSchema) }),
    ...errorResponses(400, 401, 403, 404),
  },
});

export const adjustStoreCredit = apiRoute({
  ...operation('customers.credit', 'adjust', 'adjustCustomerStoreCredit'),
  method: 'post',
  path: '/customers/{id}/credit',
  tags,
  summary: "Adjust a customer's store credit",
  description:
    'Adds (positive `amount`) or takes away (negative) store credit in a currency of the store, as one ledger entry of reason `adjustment` with the note. ' +
    'Taking more than the balance is 409 and changes nothing. Emits `store_credit.changed`.',
  policy: { access: access.permission('store-credit:write') },
  request: { params: CustomerParams, body: jsonBody(AdjustStoreCreditBody, 'The adjustment.') },
  responses: { 201: successResponse(StoreCreditEntrySchema, 'The entry written.'), ...errorResponses(...writeErrors, 404, 409) },
});
