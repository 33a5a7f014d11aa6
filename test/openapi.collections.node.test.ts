import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../scripts/openapi-dump';

/**
 * The specification: each resource collection is reached at its path, and GET on it lists that
 * resource. A collection is a path with items under it (`/carts` for `/carts/{id}`), so every
 * `X/{param}` in the document needs `GET X` answering a list (a `pagination` in its 200 body).
 */
/** Paths with items under them that are not resource collections, and where their items are listed instead. */
const NOT_COLLECTIONS: Record<string, string> = {
  // A cart's lines are part of the cart: GET /api/carts/{id} returns all of them (at most 50), priced together.
  '/api/carts/{id}/lines': '/api/carts/{id}',
  // So are the gift cards applied to it, shown in its `giftCards`.
  '/api/carts/{id}/gift-cards': '/api/carts/{id}',
  // Image files served by their content hash; the images themselves are listed per product.
  '/media': '/api/products/{id}/media',
};

describe('every collection in the OpenAPI document', () => {
  it('answers GET with a list', async () => {
    const doc = await openApiDocument();
    const paths = doc.paths as Record<string, Record<string, any>>;
    const collections = new Set(
      Object.keys(paths)
        .map((path) => /^(.*[^}])\/\{[^}]+\}$/.exec(path)?.[1])
        .filter((path): path is string => Boolean(path)),
    );
    expect(collections.size).toBeGreaterThan(20);
    for (const [path, listedAt] of Object.entries(NOT_COLLECTIONS)) {
      expect(collections.has(path), path).toBe(true);
      expect(paths[listedAt]?.get, listedAt).toBeDefined();
    }
    const unlisted = [...collections].filter((path) => {
      if (path in NOT_COLLECTIONS) return false;
      const body = paths[path]?.get?.responses?.['200']?.content?.['application/json']?.schema;
      return !body?.properties?.pagination;
    });
    expect(unlisted).toEqual([]);
  });
});
