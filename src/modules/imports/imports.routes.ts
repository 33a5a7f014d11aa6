import { access } from '../../lib/route-access';
import { z } from '@hono/zod-openapi';
import { apiRoute, errorResponses, listResponse, operation, successResponse, writeErrors } from '../../lib/openapi';
import { listQuerySchema } from '../../lib/query';
import { MAX_ROWS_PER_PRODUCT } from './plan';
import { ImportItemSchema, importListQuery, ImportQuery, ImportSchema, ImportSummarySchema } from './imports.schemas';

const tags = ['Products'];

export const importProducts = apiRoute({
  ...operation('products', 'import', 'importProducts'),
  method: 'post',
  path: '/products/import',
  tags,
  summary: 'Import products from CSV',
  description:
    "A CSV file (`Content-Type: text/csv`, up to IMPORT_MAX_BYTES, 10 MiB by default) in the store's columns or as Shopify exports products; the header tells which " +
    '(docs/import.md lists the columns). Rows sharing a `handle` are one product and its variants. Every row is checked as `POST /api/products` checks a body; ' +
    'a product with a bad row is not imported, and each failure names its line, column and reason. `dry_run=true` answers what would happen and writes nothing. ' +
    'Otherwise the answer is 202 with the import, whose products a queue writes in chunks, each product whole or not at all: one with the SKU (else the handle) ' +
    'of an existing product updates it (its variants matched by SKU; a stock difference is recorded as an inventory correction), any other is created, and ' +
    'each emits `product.created` or `product.updated` (nothing, if nothing differs). Follow it at `GET /api/imports/{id}`. A vendor user imports its own products. ' +
    `A product has at most ${MAX_ROWS_PER_PRODUCT} rows, as it has at most that many variants: a file with more rows for one handle is refused whole (422, naming the line), before the rest of it is read. ` +
    'The queue checks the caller again before each chunk: once it could no longer import (key revoked or expired, user disabled, vendor suspended, `products:write` taken away), the import ends `failed` with its reason and nothing more is written.',
  policy: { access: access.permission('products:write', { vendor: 'scoped' }), maxBodyBytes: (config) => config.IMPORT_MAX_BYTES },
  request: {
    query: ImportQuery,
    body: {
      content: {
        'text/csv': { schema: z.string().openapi({ example: 'handle,name,price,sku,variant_stock\nmug,Enamel mug,12.50,MUG-1,40\n' }) },
        // How the client libraries send a file: its bytes, read here as UTF-8 text.
        'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) },
      },
      required: true,
      description: 'The CSV file, UTF-8.',
    },
  },
  responses: {
    200: successResponse(ImportSummarySchema, 'With `dry_run=true`: what an import would do.'),
    202: successResponse(ImportSchema, 'The import, queued (or completed already when no row was valid).'),
    ...errorResponses(400, ...writeErrors, 413, 415),
  },
});

export const listImports = apiRoute({
  ...operation('imports', 'list', 'listImports'),
  method: 'get',
  path: '/imports',
  tags,
  summary: 'List product imports',
  description: 'Newest first, with their progress.',
  policy: { access: access.permission('products:write', { vendor: 'scoped' }) },
  request: { query: listQuerySchema(importListQuery) },
  responses: { 200: listResponse(ImportItemSchema, 'A page of imports.'), ...errorResponses(400, 401, 403) },
});

export const getImport = apiRoute({
  ...operation('imports', 'get', 'getImport'),
  method: 'get',
  path: '/imports/{id}',
  tags,
  summary: 'Get a product import',
  description: 'Its progress (`rowsDone` of `rows`; products created, updated, unchanged and failed) and its failures.',
  policy: { access: access.permission('products:write', { vendor: 'scoped' }) },
  request: {
    params: z.object({
      id: z
        .string()
        .min(1)
        .max(200)
        .openapi({ param: { name: 'id', in: 'path' }, example: 'imp_01JD0000000000000000000000' }),
    }),
  },
  responses: { 200: successResponse(ImportSchema, 'The import.'), ...errorResponses(401, 403, 404) },
});
