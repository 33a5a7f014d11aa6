import { access } from '../../lib/route-access';
import { z } from '@hono/zod-openapi';
import {
  apiRoute,
  crudOperations,
  errorResponses,
  IdParams,
  jsonBody,
  listResponse,
  noContentResponse,
  operation,
  publicReadErrors,
  successResponse,
  writeErrors,
} from '../../lib/openapi';
import { fieldTreeFromSchema, listQuerySchema, readQuerySchemaWith } from '../../lib/query';
import { FacetsSchema } from './products.facets';
import { productListQuery } from './products.query';
import { CreateProductBody, CreateVariantBody, ProductSchema, UpdateProductBody, UpdateVariantBody, VariantSchema } from './products.schemas';

const tags = ['Products'];
const names = crudOperations('products', 'Product', 'Products');
const variantNames = crudOperations('products.variants', 'ProductVariant', 'ProductVariants');
const VariantParams = IdParams.extend({
  variantId: z
    .string()
    .min(1)
    .max(100)
    .openapi({ param: { name: 'variantId', in: 'path' }, example: 'var_01JD0000000000000000000000' }),
});
const variantFields = readQuerySchemaWith(fieldTreeFromSchema(VariantSchema), { currency: productListQuery.filters.currency.schema });

export const listProducts = apiRoute({
  ...names.list,
  method: 'get',
  path: '/products',
  tags,
  summary: 'List products',
  description:
    "Public callers see active products only; admins see every status and may filter on it. A vendor user sees only its own vendor's products, in every status. " +
    'With `q` the list is a full-text search, ordered by relevance (`sort=relevance`, the default then) or by the `sort` given; `sort=relevance` without `q` is 400. ' +
    "With `currency` (docs/api.md, Prices per currency) prices are shown, filtered and sorted in that currency: a product's own price there when set, else its price converted; `facets=price` counts default-currency buckets, so it is 400 with another currency.",
  policy: { access: access.public(), cache: 'catalogue' },
  request: { query: listQuerySchema(productListQuery) },
  responses: { 200: listResponse(ProductSchema, 'A page of products.', { facets: FacetsSchema.optional() }), ...errorResponses(...publicReadErrors) },
});

const Ref = z.object({ id: z.string(), name: z.string(), slug: z.string() });
export const SuggestionsSchema = z
  .object({
    products: z.array(Ref).openapi({ description: 'Up to 10 products whose name matches every word typed (each as a prefix, accents ignored), best first.' }),
    categories: z.array(Ref).openapi({ description: 'Up to 10 categories whose name, or a word of it, starts with what was typed.' }),
  })
  .openapi('ProductSuggestions');

export const suggestProducts = apiRoute({
  ...operation('products', 'suggest', 'suggestProducts'),
  method: 'get',
  path: '/products/suggest',
  tags,
  summary: 'Suggest products and categories for a search box',
  description:
    'For search-as-you-type: one round trip on the full-text index, cached like the other catalogue reads (ETag, 304). Public callers get active products only. ' +
    'Follow a product suggestion to `/api/products/{id}`, a category to `/api/products?category={slug}`, or search with `/api/products?q=`.',
  policy: { access: access.public(), cache: 'catalogue' },
  request: {
    query: z.strictObject({ q: z.string().trim().min(1).max(100).openapi({ description: 'What the shopper has typed so far.', example: 'sat' }) }),
  },
  responses: { 200: successResponse(SuggestionsSchema, 'The suggestions (empty lists when nothing matches).'), ...errorResponses(...publicReadErrors) },
});

export const createProduct = apiRoute({
  ...names.create,
  method: 'post',
  path: '/products',
  tags,
  summary: 'Create a product',
  description:
    'Without `status` the product is created as a `draft`: it is not for sale and public lists and reads do not show it until its status is ' +
    "set to `active` (send `status: active` here to publish at once); the answer's `message` says so. `stock` defaults to 0. " +
    "Emits `product.created`. Without `slug`, one is made from the name (made unique with a number). A vendor user's product belongs to its vendor: `vendorId` may be left out, and naming another vendor is 403.",
  policy: { access: access.permission('products:write', { vendor: 'scoped' }) },
  request: { body: jsonBody(CreateProductBody, 'The product.') },
  responses: { 201: successResponse(ProductSchema, 'The created product.'), ...errorResponses(...writeErrors, 409) },
});

export const getProduct = apiRoute({
  ...names.get,
  method: 'get',
  path: '/products/{id}',
  tags,
  summary: 'Get a product by id or slug',
  description:
    "Public callers see active products only. To a vendor user, another vendor's product is 404 (here, on every write and on variant routes). " +
    'With `currency` the prices are shown in that currency, as `GET /api/products` shows them.',
  policy: { access: access.public(), cache: 'catalogue' },
  request: { params: IdParams, query: readQuerySchemaWith(productListQuery.selectable, { currency: productListQuery.filters.currency.schema }) },
  responses: { 200: successResponse(ProductSchema, 'The product.'), ...errorResponses(...publicReadErrors, 404) },
});

export const updateProduct = apiRoute({
  ...names.update,
  method: 'patch',
  path: '/products/{id}',
  tags,
  summary: 'Update a product',
  description: 'Emits `product.updated` when anything changes. A vendor user cannot move a product to another vendor (403).',
  policy: { access: access.permission('products:write', { vendor: 'scoped' }) },
  request: { params: IdParams, body: jsonBody(UpdateProductBody, 'Fields to change.') },
  responses: { 200: successResponse(ProductSchema, 'The updated product.'), ...errorResponses(...writeErrors, 404, 409) },
});

export const deleteProduct = apiRoute({
  ...names.delete,
  method: 'delete',
  path: '/products/{id}',
  tags,
  summary: 'Delete a product',
  description: 'Deletes the product with its variants and category links; emits `product.deleted`. To hide a product but keep it, set its status to `archived`.',
  policy: { access: access.permission('products:write', { vendor: 'scoped' }) },
  request: { params: IdParams },
  responses: { 204: noContentResponse, ...errorResponses(401, 403, 404) },
});

export const listVariants = apiRoute({
  ...variantNames.list,
  method: 'get',
  path: '/products/{id}/variants',
  tags,
  summary: "List a product's variants",
  description: 'All variants of the product (at most 100) in one page, in position order. With `currency`, prices in that currency as `GET /api/products` shows them.',
  policy: { access: access.public(), cache: 'catalogue' },
  request: { params: IdParams, query: variantFields },
  responses: { 200: listResponse(VariantSchema, 'The variants.'), ...errorResponses(...publicReadErrors, 404) },
});

export const createVariant = apiRoute({
  ...variantNames.create,
  method: 'post',
  path: '/products/{id}/variants',
  tags,
  summary: 'Add a variant',
  description: 'Emits `product.updated`.',
  policy: { access: access.permission('products:write', { vendor: 'scoped' }) },
  request: { params: IdParams, body: jsonBody(CreateVariantBody, 'The variant.') },
  responses: { 201: successResponse(VariantSchema, 'The created variant.'), ...errorResponses(...writeErrors, 404, 409) },
});

export const getVariant = apiRoute({
  ...variantNames.get,
  method: 'get',
  path: '/products/{id}/variants/{variantId}',
  tags,
  summary: 'Get a variant',
  policy: { access: access.public(), cache: 'catalogue' },
  request: { params: VariantParams, query: variantFields },
  responses: { 200: successResponse(VariantSchema, 'The variant.'), ...errorResponses(...publicReadErrors, 404) },
});

export const updateVariant = apiRoute({
  ...variantNames.update,
  method: 'patch',
  path: '/products/{id}/variants/{variantId}',
  tags,
  summary: 'Update a variant',
  description: 'Emits `product.updated` when anything changes.',
  policy: { access: access.permission('products:write', { vendor: 'scoped' }) },
  request: { params: VariantParams, body: jsonBody(UpdateVariantBody, 'Fields to change.') },
  responses: { 200: successResponse(VariantSchema, 'The updated variant.'), ...errorResponses(...writeErrors, 404, 409) },
});

export const deleteVariant = apiRoute({
  ...variantNames.delete,
  method: 'delete',
  path: '/products/{id}/variants/{variantId}',
  tags,
  summary: 'Delete a variant',
  description: 'A product keeps at least one variant (409 for the last one). Emits `product.updated`.',
  policy: { access: access.permission('products:write', { vendor: 'scoped' }) },
  request: { params: VariantParams },
  responses: { 204: noContentResponse, ...errorResponses(401, 403, 404, 409) },
});
