import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { createApp } from '../src/app';

// Runs in Node (the validator compiles schemas with `new Function`, which workerd forbids). The
// document is produced by the same app the Worker serves.
async function openApiDocument() {
  const res = await createApp().request('http://store.test/api/openapi.json', {}, { DB: {} as D1Database });
  expect(res.status).toBe(200);
  return (await res.json()) as any;
}

describe('OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const doc = await openApiDocument();
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('documents every route with its parameters, bodies and error shapes', async () => {
    const doc = await openApiDocument();
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item as Record<string, any>).map(([method, op]) => ({ path, method, op })),
    );
    expect(operations.map((o) => `${o.method.toUpperCase()} ${o.path}`)).toEqual(
      expect.arrayContaining([
        'GET /api/health',
        'GET /api/products',
        'POST /api/products',
        'GET /api/products/{id}',
        'PATCH /api/products/{id}',
        'DELETE /api/products/{id}',
        'POST /api/products/{id}/variants',
        'PATCH /api/products/{id}/variants/{variantId}',
        'GET /api/categories',
        'POST /api/brands',
      ]),
    );
    for (const { path, method, op } of operations) {
      expect(op.responses['500'], `${method} ${path} documents 500`).toBeDefined();
      if (['post', 'patch'].includes(method)) {
        expect(op.requestBody?.content?.['application/json'], `${method} ${path} body`).toBeDefined();
        expect(op.responses['422'], `${method} ${path} documents 422`).toBeDefined();
      }
    }
    const list = doc.paths['/api/products'].get;
    const params = list.parameters.map((p: { name: string }) => p.name);
    expect(params).toEqual(expect.arrayContaining(['page', 'limit', 'sort', 'fields', 'category', 'brand', 'price_min', 'price_max', 'status', 'q']));
    expect(doc.components.schemas.Error).toBeDefined();
    expect(doc.components.schemas.Product.properties.variants).toBeDefined();
    expect(doc.components.securitySchemes.bearerAuth).toEqual(expect.objectContaining({ type: 'http', scheme: 'bearer' }));
  });
});
