import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import type { Redispatch } from '../../src/middleware/rate-limit';
import { appKey, MOUNTS, mountKey } from '../../src/mounts';
import { workerFetch } from '../worker-fetch';

// A request is answered by an app of the mounts that claim its key (src/mounts.ts). That matches what
// one app of every mount would only if each mount claims the key of every route it has: a route whose
// key its mount does not claim would answer 404.

const redispatch: Redispatch = () => Promise.reject(new Error('not sent in this test'));

/** The keys of a mount's routes, as the app sees their paths. */
async function routeKeys(index: number): Promise<string[]> {
  const mount = MOUNTS[index]!;
  const app = new Hono().route(mount.at, await mount.load(redispatch));
  return [...new Set(app.routes.map((route) => mountKey(route.path)))].sort();
}

describe('mounts', () => {
  it('claim exactly the keys of their routes', async () => {
    const wrong: string[] = [];
    for (const [index, mount] of MOUNTS.entries()) {
      const keys = await routeKeys(index);
      if (keys.join() !== [...mount.keys].sort().join()) wrong.push(`${mount.at} #${index}: claims ${mount.keys.join(', ')}; its routes take ${keys.join(', ')}`);
    }
    expect(wrong).toEqual([]);
  });

  it('key a path by its segment under /api, else by its first segment', () => {
    expect(['/api', '/api/', '/api/products', '/api/products/p_1/media', '/admin/orders', '/media/a.png', '/', '/docs'].map(mountKey)).toEqual([
      'api/',
      'api/',
      'api/products',
      'api/products',
      'admin',
      'media',
      '',
      'docs',
    ]);
  });

  it('give every path no mount claims one key, so callers cannot make the isolate keep an app per path', () => {
    expect(['/api/products/p_1', '/admin/orders', '/api/openapi.json', '/api'].map(appKey)).toEqual(['api/products', 'admin', 'api/openapi.json', 'api/']);
    expect(['/api/nothing-1', '/api/nothing-2', '/nothing', '/', '/api/v9/products'].map(appKey)).toEqual(['', '', '', '', '']);
  });

  it('answer a path no mount claims with the envelope 404, and a versioned path as its unversioned one', async () => {
    const missing = await workerFetch('http://store.test/api/nothing-here');
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND', message: 'No route for GET /api/nothing-here' } });
    const versioned = await workerFetch('http://store.test/api/v1/health');
    expect(versioned.status).toBe(200);
    expect(versioned.headers.get('API-Version')).toBe('v1');
  });

  it('answer with the envelope 500 when a router fails to load, and load it again on the next request', async () => {
    let loads = 0;
    const failing = { at: '/api' as const, keys: ['api/health'], load: () => Promise.reject(new Error(`load ${++loads} failed`)) };
    const app = createApp([failing]);
    for (const attempt of [1, 2]) {
      const res = await app.fetch(new Request('http://store.test/api/health'), {} as never, undefined as never);
      expect(res.status).toBe(500);
      expect(await res.json()).toMatchObject({ success: false, error: { code: 'INTERNAL_ERROR', details: [] } });
      expect(res.headers.get('X-Request-Id')).toBeTruthy();
      expect(loads).toBe(attempt);
    }
  });

  it("make one whole app, of every mount's routes and the OpenAPI document, once", async () => {
    const app = createApp();
    const whole = await app.whole();
    const paths = new Set(whole.routes.map((route) => `${route.method} ${route.path}`));
    const missing: string[] = [];
    for (const mount of MOUNTS)
      for (const route of new Hono().route(mount.at, await mount.load(redispatch)).routes)
        if (!paths.has(`${route.method} ${route.path}`)) missing.push(`${route.method} ${route.path}`);
    expect(missing).toEqual([]);
    expect(paths).toContain('GET /api/openapi.json');
    expect(await app.whole()).toBe(whole);
  });
});
