import { access } from '../../lib/route-access';
import { z } from '@hono/zod-openapi';
import { apiRoute, errorResponses, jsonBody, listResponse, operation, successResponse, writeErrors } from '../../lib/openapi';
import { listQuerySchema } from '../../lib/query';
import { adjustmentListQuery, inventoryListQuery } from './inventory.query';
import { AdjustmentResultSchema, AdjustmentSchema, CreateAdjustmentBody, InventoryItemSchema } from './inventory.schemas';

const tags = ['Inventory'];
const readers =
  'Needs `inventory:read` (or `inventory:write`), or `products:write`: product writers already see stock through the products API. ' +
  "A vendor user sees its own products' variants only (others are 404).";
const VariantParams = z.object({
  variantId: z
    .string()
    .min(1)
    .max(200)
    .openapi({ param: { name: 'variantId', in: 'path' }, example: 'var_01JD0000000000000000000000' }),
});

export const listInventory = apiRoute({
  ...operation('inventory', 'list', 'listInventory'),
  method: 'get',
  path: '/inventory',
  tags,
  summary: 'List stock per variant',
  description: `Lowest stock first by default. \`low=true\` lists the variants at or below their threshold (the variant's, else the product's, else the store's). ${readers}`,
  policy: { access: access.permission('inventory:read', { also: ['inventory:write', 'products:write'], vendor: 'scoped' }) },
  request: { query: listQuerySchema(inventoryListQuery) },
  responses: { 200: listResponse(InventoryItemSchema, 'A page of stock levels.'), ...errorResponses(400, 401, 403) },
});

export const createAdjustment = apiRoute({
  ...operation('inventory.adjustments', 'create', 'createInventoryAdjustment'),
  method: 'post',
  path: '/inventory/{variantId}/adjustments',
  tags,
  summary: "Adjust a variant's stock",
  description:
    'Adds `delta` (negative to take out) and keeps the change in the history. Taking stock from above the threshold to at or below it emits ' +
    '`inventory.low` (once per crossing). Below zero is 409 and changes nothing. Answers with the history row and the stock after it.',
  policy: { access: access.permission('inventory:write', { vendor: 'scoped' }) },
  request: { params: VariantParams, body: jsonBody(CreateAdjustmentBody, 'The adjustment.') },
  responses: { 201: successResponse(AdjustmentResultSchema, 'The adjustment, with the stock after it.'), ...errorResponses(...writeErrors, 404, 409) },
});

export const listAdjustments = apiRoute({
  ...operation('inventory.adjustments', 'list', 'listInventoryAdjustments'),
  method: 'get',
  path: '/inventory/{variantId}/adjustments',
  tags,
  summary: "A variant's stock history",
  description: `Every change (orders, cancellations, manual adjustments, stock set through the products API), newest first by default. ${readers}`,
  policy: { access: access.permission('inventory:read', { also: ['inventory:write', 'products:write'], vendor: 'scoped' }) },
  request: { params: VariantParams, query: listQuerySchema(adjustmentListQuery) },
  responses: { 200: listResponse(AdjustmentSchema, 'A page of the history.'), ...errorResponses(400, 401, 403, 404) },
});
