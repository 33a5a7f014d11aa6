import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../scripts/openapi-dump';
import { CONFIG_DEFAULTS } from '../src/config';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// Runs in Node (the validator compiles schemas with `new Function`, which workerd forbids). The
// document is produced by the same app the Worker serves.

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
    const operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item as Record<string, any>).map(([method, op]) => ({ path, method, op })));
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
        // JSON everywhere, but an image upload (the image itself, raw or as a form's file part) and a product import (the CSV file).
        const bodyType = path === '/api/products/{id}/media' ? 'multipart/form-data' : path === '/api/products/import' ? 'text/csv' : 'application/json';
        expect(op.requestBody?.content?.[bodyType], `${method} ${path} body`).toBeDefined();
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

  it('names every operation once: a camelCase operationId and a unique x-sdk-group / x-sdk-method pair', async () => {
    const operations = operationsOf(await openApiDocument());
    const ids = operations.map(({ op }) => op.operationId);
    for (const { path, method, op } of operations) {
      expect(op.operationId, `${method} ${path} operationId`).toMatch(/^[a-z][A-Za-z0-9]*$/);
      expect(op['x-sdk-group'], `${method} ${path} x-sdk-group`).toMatch(/^[a-z][A-Za-z0-9]*(\.[a-z][A-Za-z0-9]*)*$/);
      expect(op['x-sdk-method'], `${method} ${path} x-sdk-method`).toMatch(/^[a-z][A-Za-z0-9]*$/);
    }
    expect(duplicates(ids)).toEqual([]);
    expect(duplicates(operations.map(({ op }) => `${op['x-sdk-group']}.${op['x-sdk-method']}`))).toEqual([]);
    const named = (method: string, path: string) => {
      const op = operations.find((o) => o.method === method && o.path === path)?.op;
      return op && [op.operationId, op['x-sdk-group'], op['x-sdk-method']];
    };
    expect(named('get', '/api')).toEqual(['getApiIndex', 'api', 'index']);
    expect(named('get', '/api/health')).toEqual(['getHealth', 'health', 'get']);
    expect(named('get', '/api/products')).toEqual(['listProducts', 'products', 'list']);
    expect(named('post', '/api/products/{id}/variants')).toEqual(['createProductVariant', 'products.variants', 'create']);
    expect(named('post', '/api/orders/{id}/cancel')).toEqual(['cancelOrder', 'orders', 'cancel']);
    expect(named('post', '/api/carts/{id}/lines')).toEqual(['addCartLine', 'carts.lines', 'add']);
    expect(named('post', '/api/carts/{id}/checkout')).toEqual(['checkoutCart', 'carts', 'checkout']);
    expect(named('post', '/api/webhooks/{id}/rotate-secret')).toEqual(['rotateWebhookSecret', 'webhooks', 'rotateSecret']);
    expect(named('get', '/api/auth/me')).toEqual(['getMe', 'auth', 'me']);
    expect(named('get', '/api/settings/api-keys')).toEqual(['listApiKeys', 'apiKeys', 'list']);
  });

  it('gives every operation a declared tag and its security, and every operation that can fail on input a 4xx', async () => {
    const doc = await openApiDocument();
    const tags: { name: string; description?: string }[] = doc.tags ?? [];
    for (const tag of tags) expect(tag.description, `tag ${tag.name} has a description`).toBeTruthy();
    const declared = new Set(tags.map((t) => t.name));
    for (const { path, method, op } of operationsOf(doc)) {
      expect(op.tags, `${method} ${path} tags`).toHaveLength(1);
      expect(declared.has(op.tags[0]), `${method} ${path} tag ${op.tags[0]} is declared`).toBe(true);
      expect(Array.isArray(op.security), `${method} ${path} security`).toBe(true);
      for (const requirement of op.security) expect(Object.keys(requirement).every((name) => name in doc.components.securitySchemes)).toBe(true);
      // GET /api and GET /api/health read nothing and are never counted: they have no 4xx to give (redocly.yaml).
      if (!['/api', '/api/health'].includes(path)) {
        expect(
          Object.keys(op.responses).some((status) => /^4\d\d$/.test(status)),
          `${method} ${path} documents a 4xx`,
        ).toBe(true);
      }
    }
    expect(doc.paths['/api'].get.security).toEqual([]);
    expect(doc.paths['/api/health'].get.security).toEqual([]);
    expect(doc.paths['/api/products'].get.security).toEqual([{}, { publishableKey: [] }, { bearerAuth: [] }]);
    expect(doc.paths['/api/orders'].get.security).toEqual([{ bearerAuth: [] }]);
    expect(doc.info.description).toContain('`{}` next to it means the credential is optional');
  });

  it('types numeric and boolean query parameters', async () => {
    const doc = await openApiDocument();
    const param = (path: string, name: string) => doc.paths[path].get.parameters.find((p: { name: string; in: string }) => p.in === 'query' && p.name === name)?.schema;
    for (const path of ['/api/products', '/api/coupons', '/api/webhooks', '/api/banners', '/api/notifications/templates']) {
      expect(param(path, 'page'), `${path} page`).toEqual(expect.objectContaining({ type: 'integer', minimum: 1, default: 1 }));
      expect(param(path, 'limit'), `${path} limit`).toEqual(expect.objectContaining({ type: 'integer', minimum: 1, maximum: 100, default: 20 }));
    }
    expect(param('/api/products', 'price_min')).toEqual(expect.objectContaining({ type: 'number', minimum: 0 }));
    expect(param('/api/products', 'price_max')).toEqual(expect.objectContaining({ type: 'number', minimum: 0 }));
    for (const path of ['/api/coupons', '/api/webhooks', '/api/banners', '/api/notifications/templates']) {
      expect(param(path, 'active'), `${path} active`).toEqual(expect.objectContaining({ type: 'boolean' }));
      expect(param(path, 'active').enum, `${path} active`).toBeUndefined();
    }
    expect(param('/api/settings/currencies', 'enabled')).toEqual(expect.objectContaining({ type: 'boolean' }));
    expect(param('/api/inventory', 'low')).toEqual(expect.objectContaining({ type: 'boolean' }));
    // No query parameter is left as text that is really a number or a boolean.
    for (const { path, method, op } of operationsOf(doc)) {
      for (const p of (op.parameters ?? []).filter((p: { in: string }) => p.in === 'query')) {
        if (p.schema.type !== 'string') continue;
        expect(p.schema.enum ?? [], `${method} ${path} ${p.name}`).not.toEqual(['true', 'false']);
        expect(String(p.schema.example ?? ''), `${method} ${path} ${p.name} example`).not.toMatch(/^(\d+(\.\d+)?|true|false)$/);
      }
    }
  });

  it('marks every operation that takes `fields` with x-fields-selection, and says what a selection does', async () => {
    const doc = await openApiDocument();
    let marked = 0;
    for (const { path, method, op } of operationsOf(doc)) {
      const fields = (op.parameters ?? []).find((p: { in: string; name: string }) => p.in === 'query' && p.name === 'fields');
      expect(op['x-fields-selection'], `${method} ${path} x-fields-selection`).toBe(fields ? true : undefined);
      if (fields) {
        marked++;
        expect(fields.description, `${method} ${path} fields`).toContain('returns only the selected properties');
      }
    }
    expect(marked).toBeGreaterThan(40);
    expect(doc.paths['/api/products'].get['x-fields-selection']).toBe(true);
    expect(doc.paths['/api/products/{id}'].get['x-fields-selection']).toBe(true);
    expect(doc.paths['/api/products'].post['x-fields-selection']).toBeUndefined();
    expect(doc.info.description).toContain('x-fields-selection');
  });

  it('keeps its description short, pointing at the docs in the repository for the whole contract', async () => {
    const doc = await openApiDocument();
    const description: string = doc.info.description;
    expect(description.length).toBeLessThan(2000);
    const named = [...description.matchAll(/\bdocs\/[\w-]+\.md\b/g)].map((m) => m[0]);
    expect(named).toContain('docs/api.md');
    for (const file of named) expect(existsSync(path.join(ROOT, file)), `${file} exists`).toBe(true);
    // Nothing outside the repository: no links, only files of it.
    expect(description).not.toMatch(/https?:\/\//);
  });

  it("shows every operation's route policy: x-rate-limited (and 429), x-cache, x-max-body-bytes and x-idempotency", async () => {
    const doc = await openApiDocument();
    const defaults = CONFIG_DEFAULTS;
    for (const { path, method, op } of operationsOf(doc)) {
      const name = `${method.toUpperCase()} ${path}`;
      expect(typeof op['x-rate-limited'], `${name} x-rate-limited`).toBe('boolean');
      // A counted operation can be refused 429, and says so; one never limited does not.
      expect(op.responses['429'] !== undefined, `${name} 429`).toBe(op['x-rate-limited']);
      expect(['catalogue', 'none'], `${name} x-cache`).toContain(op['x-cache']);
      if (op['x-cache'] === 'catalogue') expect(method, `${name} x-cache`).toBe('get');
      expect(Number.isInteger(op['x-max-body-bytes']) && op['x-max-body-bytes'] > 0, `${name} x-max-body-bytes`).toBe(true);
      const takesKey = (op.parameters ?? []).some((p: { in: string; name: string }) => p.in === 'header' && p.name === 'Idempotency-Key');
      expect(op['x-idempotency'] !== undefined, `${name} x-idempotency`).toBe(takesKey);
    }
    expect(doc.paths['/api/products'].get['x-cache']).toBe('catalogue');
    expect(doc.paths['/api/products'].post['x-cache']).toBe('none');
    expect(doc.paths['/api/health'].get['x-rate-limited']).toBe(false);
    expect(doc.paths['/api/products'].get['x-rate-limited']).toBe(true);
    expect(doc.paths['/api/products'].post['x-max-body-bytes']).toBe(defaults.MAX_BODY_BYTES);
    expect(doc.paths['/api/products/{id}/media'].post['x-max-body-bytes']).toBe(defaults.MEDIA_MAX_BYTES + 64 * 1024);
    expect(doc.paths['/api/products/import'].post['x-max-body-bytes']).toBe(defaults.IMPORT_MAX_BYTES);
    expect(doc.paths['/api/carts/{id}/checkout'].post['x-idempotency']).toEqual({ scope: ['X-Cart-Token'] });
    expect(doc.paths['/api/orders'].post['x-idempotency']).toEqual({ scope: [] });
  });
});

function operationsOf(doc: any): { path: string; method: string; op: any }[] {
  return Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item as Record<string, any>).map(([method, op]) => ({ path, method, op })));
}

function duplicates(values: string[]): string[] {
  return [...new Set(values.filter((v, i) => values.indexOf(v) !== i))];
}
