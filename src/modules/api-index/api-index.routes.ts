import { access } from '../../lib/route-access';
import { z } from '@hono/zod-openapi';
import { apiRoute, errorResponses, operation, successResponse } from '../../lib/openapi';
import { ApiVersion } from '../../versions/schemas';

const Path = z.string().openapi({ example: '/api/products' });

export const ApiIndexSchema = z
  .object({
    name: z.string().openapi({ example: 'Store API' }),
    store: z
      .object({ name: z.string().openapi({ example: 'My Store' }) })
      .openapi({ description: "The store's public face: its name (the settings' `name`), for a storefront's header. A change shows within 30 seconds." }),
    version: z.string().openapi({ example: 'v1', description: 'The path version: every path is also served under `/api/v1/`.' }),
    versions: z
      .array(z.object({ version: ApiVersion, summary: z.string().openapi({ description: 'What changed in this version, for client developers.' }) }))
      .openapi({ description: 'The dated versions of the API, oldest first (docs/versioning.md). Send `Store-Version: <date>` to choose one.' }),
    latestVersion: ApiVersion,
    defaultVersion: ApiVersion.openapi({ description: "The store's default: what a request with no `Store-Version` header and no key pinned to a version is answered in." }),
    storeVersion: ApiVersion.openapi({ description: "The version this answer is in: the header, else the calling key's pinned version, else the default." }),
    links: z.object({ self: Path, docs: Path, openapi: Path, health: Path }).openapi({ description: 'Interactive documentation, the OpenAPI 3.1 document and the health check.' }),
    collections: z
      .record(z.string(), Path)
      .openapi({ description: 'The main resources, by name. Every path is also served under `/api/v1/`.', example: { products: '/api/products', orders: '/api/orders' } }),
  })
  .openapi('ApiIndex');

export const apiIndex = apiRoute({
  ...operation('api', 'index', 'getApiIndex'),
  method: 'get',
  path: '/',
  tags: ['Health'],
  policy: { access: access.none(), counted: false },
  summary: 'Where to start: the API index',
  description:
    "The API name, its dated versions (the latest, the store's default and the one this request is answered in) with links to the documentation (`/docs`), this document (`/api/openapi.json`), the health check and the main " +
    'collections. Also at `/api/v1`. Public, needs no credential and counts against no rate limit.',
  responses: { 200: successResponse(ApiIndexSchema, 'The index.'), ...errorResponses() },
});
