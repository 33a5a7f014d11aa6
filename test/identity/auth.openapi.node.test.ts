import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../scripts/openapi-dump';

// Runs in Node, like test/openapi.node.test.ts: reads the document the Worker serves.

describe('OpenAPI document of auth and customers', () => {
  it('documents every auth and customer route with its responses', async () => {
    const doc = await openApiDocument();
    const expected: Record<string, Record<string, string[]>> = {
      '/api/auth/register': { post: ['201', '409', '422', '500'] },
      '/api/auth/login': { post: ['200', '401', '422', '500'] },
      '/api/auth/me': { get: ['200', '401', '403', '500'] },
      '/api/auth/password': { post: ['200', '401', '403', '422', '500'] },
      '/api/auth/bootstrap': { post: ['201', '403', '404', '409', '422', '500'] },
      '/api/customers': { get: ['200', '400', '401', '403', '500'], post: ['201', '401', '403', '409', '422', '500'] },
      '/api/customers/{id}': { get: ['200', '401', '404'], patch: ['200', '403', '404', '409', '422'], delete: ['204', '403', '404'] },
      '/api/customers/{id}/addresses': { get: ['200', '404'], post: ['201', '404', '409', '422'] },
      '/api/customers/{id}/addresses/{addressId}': { get: ['200', '404'], patch: ['200', '404', '422'], delete: ['204', '404'] },
    };
    for (const [path, methods] of Object.entries(expected)) {
      for (const [method, statuses] of Object.entries(methods)) {
        const op = doc.paths[path]?.[method];
        expect(op, `${method} ${path}`).toBeDefined();
        expect(Object.keys(op.responses), `${method} ${path}`).toEqual(expect.arrayContaining(statuses));
      }
    }
  });

  it('documents the customer list parameters and the shapes, without secrets', async () => {
    const doc = await openApiDocument();
    const params = doc.paths['/api/customers'].get.parameters;
    expect(params.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['page', 'limit', 'sort', 'fields', 'q', 'status', 'created_after', 'created_before']));
    const after = params.find((p: { name: string }) => p.name === 'created_after');
    const before = params.find((p: { name: string }) => p.name === 'created_before');
    expect(after.description).toMatch(/on or after/);
    expect(before.description).toMatch(/before this day/);
    const { schemas } = doc.components;
    for (const name of ['Customer', 'Address', 'User']) {
      expect(Object.keys(schemas[name].properties), name).not.toEqual(expect.arrayContaining(['passwordHash']));
      expect(Object.keys(schemas[name].properties), name).not.toContain('tokenVersion');
    }
    expect(JSON.stringify(schemas.Me)).toContain('#/components/schemas/Address');
    expect(schemas.Session.required).toEqual(expect.arrayContaining(['token', 'expiresIn', 'user']));
    expect(schemas.CreateAddress.properties.country.pattern).toBe('^[A-Z]{2}$');
  });
});
