import { workerFetch } from '../worker-fetch';
import { describe, expect, it } from 'vitest';
import { openApiBuilds } from '../../src/docs/openapi-document';
import { adminKey, api } from '../helpers';

describe('response envelope and headers', () => {
  it('wraps a success in { success, data, message } with API-Version and a request id', async () => {
    const res = await api('/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, data: { status: 'ok', database: 'ok', time: expect.any(String) }, message: 'OK' });
    expect(res.headers.get('API-Version')).toBe('v1');
    expect(res.headers.get('X-Request-Id')).toMatch(/^[\w-]{8,}$/);
  });

  it('echoes the client request id', async () => {
    const res = await api('/api/products', { headers: { 'X-Request-Id': 'client-req-42' } });
    expect(res.headers.get('X-Request-Id')).toBe('client-req-42');
  });

  it('gives every request its own id', async () => {
    const [a, b] = await Promise.all([api('/api/health'), api('/api/health')]);
    expect(a.headers.get('X-Request-Id')).not.toBe(b.headers.get('X-Request-Id'));
  });

  it('adds pagination to lists', async () => {
    const res = await api('/api/brands');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, data: [], message: expect.any(String) });
    expect(res.body.pagination).toEqual({ page: 1, limit: 20, total: 0, totalPages: 0, hasNext: false, hasPrev: false });
  });

  it('answers 201 with Location for a creation and 204 with no body for a deletion', async () => {
    const key = await adminKey();
    const created = await api('/api/brands', { method: 'POST', key, json: { name: 'Envelope Co' } });
    expect(created.status).toBe(201);
    expect(created.headers.get('Location')).toBe(`/api/brands/${created.body.data.id}`);
    const deleted = await api(`/api/brands/${created.body.data.id}`, { method: 'DELETE', key });
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBe('');
  });

  it('serves the same routes under /api/v1', async () => {
    const key = await adminKey();
    const created = await api('/api/v1/brands', { method: 'POST', key, json: { name: 'Versioned' } });
    expect(created.status).toBe(201);
    const read = await api(`/api/v1/brands/${created.body.data.id}`);
    expect(read.status).toBe(200);
    expect(read.body.data.name).toBe('Versioned');
    expect(read.headers.get('API-Version')).toBe('v1');
    const health = await api('/api/v1/health');
    expect(health.status).toBe(200);
  });
});

describe('error envelope', () => {
  it('answers unknown routes with 404 NOT_FOUND in the envelope', async () => {
    for (const path of ['/api/nope', '/api/v1/nope', '/nowhere']) {
      const res = await api(path);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, error: { code: 'NOT_FOUND', message: expect.stringContaining('No route'), details: [] } });
      expect(res.headers.get('X-Request-Id')).toBeTruthy();
      expect(res.headers.get('API-Version')).toBe('v1');
    }
  });

  it('answers a wrong method on a known path with 404 in the envelope', async () => {
    const res = await api('/api/health', { method: 'DELETE' });
    expect(res.status).toBe(404);
    expect(res.body.success).toBe(false);
  });

  it('answers malformed JSON with 400 INVALID_REQUEST', async () => {
    const key = await adminKey();
    const res = await api('/api/brands', { method: 'POST', key, headers: { 'Content-Type': 'application/json' }, body: '{"name": "x",' });
    expect(res.status).toBe(400);
    expect(res.body.error).toEqual({
      code: 'INVALID_REQUEST',
      message: 'Request body is not valid JSON',
      details: { field: 'body', issue: 'is not valid JSON', code: 'invalid_format', message: 'body is not valid JSON' },
    });
  });

  it('answers a non-JSON body with 415 INVALID_REQUEST', async () => {
    const key = await adminKey();
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded']) {
      const res = await api('/api/brands', { method: 'POST', key, headers: { 'Content-Type': contentType }, body: 'name=x' });
      expect(res.status).toBe(415);
      expect(res.body.error.code).toBe('INVALID_REQUEST');
      expect(res.body.error.details).toEqual({ field: 'Content-Type', issue: 'must be application/json', code: 'invalid_value', message: 'Content-Type must be application/json' });
    }
  });

  it('answers a body without a content type with 415', async () => {
    const key = await adminKey();
    const res = await api('/api/brands', { method: 'POST', key, body: new Blob(['{"name":"x"}']) });
    expect(res.status).toBe(415);
  });

  it('answers a body over the limit with 413 INVALID_REQUEST, declared or streamed', async () => {
    const key = await adminKey();
    const big = JSON.stringify({ name: 'x', description: 'a'.repeat(70_000) });
    const declared = await api('/api/brands', { method: 'POST', key, headers: { 'Content-Type': 'application/json' }, body: big });
    expect(declared.status).toBe(413);
    expect(declared.body.error.code).toBe('INVALID_REQUEST');
    expect(declared.body.error.details.field).toBe('body');

    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const streamed = await api('/api/brands', { method: 'POST', key, headers: { 'Content-Type': 'application/json' }, body: stream, duplex: 'half' } as RequestInit);
    expect(streamed.status).toBe(413);
  });

  it('answers a body that fails its schema with 422 listing every invalid field', async () => {
    const key = await adminKey();
    const res = await api('/api/products', { method: 'POST', key, json: { price: -1, status: 'sold', colour: 'red' } });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    const fields = res.body.error.details.map((d: { field: string }) => d.field).sort();
    expect(fields).toEqual(['colour', 'name', 'price', 'status']);
    for (const detail of res.body.error.details) expect(detail.message).toEqual(expect.any(String));
  });

  it('answers a JSON body that is not an object with 422', async () => {
    const key = await adminKey();
    const res = await api('/api/brands', { method: 'POST', key, json: ['not', 'an', 'object'] });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([{ field: 'body', code: 'invalid_type', message: 'body must be an object' }]);
  });

  it('answers an empty body on a create with 422 naming the required fields', async () => {
    const key = await adminKey();
    const res = await api('/api/brands', { method: 'POST', key });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([{ field: 'name', code: 'required', message: 'name is required' }]);
  });
});

describe('documentation', () => {
  it('serves interactive documentation at /docs pointing at the OpenAPI document', async () => {
    const res = await api('/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toContain('text/html');
    expect(res.body).toContain('/api/openapi.json');
  });

  it('serves the OpenAPI document publicly, naming this server', async () => {
    const res = await api('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.servers).toEqual([{ url: 'http://store.test', description: 'This server' }]);
  });

  it('builds the OpenAPI document once, names each origin in it, and answers its ETag with 304', async () => {
    const first = await api('/api/openapi.json');
    expect(first.status).toBe(200);
    const built = openApiBuilds();
    expect(built).toBeGreaterThan(0);
    const etag = first.headers.get('ETag');
    expect(etag).toMatch(/^"[0-9a-f]{24}"$/);
    const again = await fetchText('http://store.test/api/openapi.json');
    expect(again.text).toBe(JSON.stringify(first.body));
    expect(again.headers.get('ETag')).toBe(etag);
    // Another origin gets its own servers entry from the same kept document.
    const other = await fetchText('https://shop.example/api/openapi.json');
    expect(JSON.parse(other.text).servers).toEqual([{ url: 'https://shop.example', description: 'This server' }]);
    expect(other.text.replace('https://shop.example', 'http://store.test')).toBe(again.text);
    expect(openApiBuilds()).toBe(built);
    // A client holding the tag gets no body.
    const revalidated = await api('/api/openapi.json', { headers: { 'If-None-Match': etag! } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body).toBe('');
    expect(revalidated.headers.get('ETag')).toBe(etag);
    expect((await api('/api/openapi.json', { headers: { 'If-None-Match': '"stale"' } })).status).toBe(200);
  });
});

async function fetchText(url: string, init: RequestInit = {}) {
  const res = await workerFetch(new Request(url, init));
  return { status: res.status, headers: res.headers, text: await res.text() };
}
