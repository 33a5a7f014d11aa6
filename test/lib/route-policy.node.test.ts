import { OpenAPIHono, z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../../src/env';
import { apiRoute, operation, successResponse } from '../../src/lib/openapi';
import { access } from '../../src/lib/route-access';
import { DEFAULT_POLICY, type RoutePolicy } from '../../src/lib/route-policy';
import { versionAliasPath } from '../../src/middleware/api-version';
import { resolveRoutePolicy, routePolicy } from '../../src/middleware/route-policy';

// routePolicy(c) names the policy of the operation that answers, as Hono routes the request.

const ok = { 200: successResponse(z.object({}), 'ok') };
const route = (method: 'get' | 'post', path: string, policy: Partial<RoutePolicy>, id: string) =>
  apiRoute({ ...operation('things', id, id), method, path, tags: ['Things'], policy: { ...policy, access: access.none() }, responses: ok });

function app() {
  const seen: { policy?: RoutePolicy } = {};
  const things = new OpenAPIHono<AppEnv>();
  things.openapi(route('get', '/things/special', { cache: 'catalogue' }, 'special'), (c) => c.json({ success: true as const, data: {}, message: '' }, 200));
  things.openapi(route('get', '/things/{id}', { counted: false }, 'get'), (c) => c.json({ success: true as const, data: {}, message: '' }, 200));
  things.openapi(route('post', '/things/{id}', { maxBodyBytes: () => 7 }, 'post'), (c) => c.json({ success: true as const, data: {}, message: '' }, 200));
  const root = new OpenAPIHono<AppEnv>({ getPath: versionAliasPath });
  root.use(
    '/api/*',
    resolveRoutePolicy(() => root.openAPIRegistry.definitions),
  );
  root.use('/api/*', async (c, next) => {
    seen.policy = routePolicy(c);
    await next();
  });
  root.route('/api', things);
  const policyOf = async (method: string, path: string) => {
    seen.policy = undefined;
    await root.request(path, { method });
    return seen.policy as RoutePolicy | undefined;
  };
  return { policyOf };
}

describe('routePolicy', () => {
  it('is the policy of the route that answers: the first registered one, params matched, /api/v1 as /api', async () => {
    const { policyOf } = app();
    expect((await policyOf('GET', '/api/things/special'))?.cache).toBe('catalogue');
    expect((await policyOf('GET', '/api/things/special'))?.counted).toBe(true);
    expect((await policyOf('GET', '/api/things/thing_1'))?.counted).toBe(false);
    expect((await policyOf('GET', '/api/v1/things/thing_1'))?.counted).toBe(false);
    expect((await policyOf('HEAD', '/api/things/thing_1'))?.counted).toBe(false);
    expect((await policyOf('POST', '/api/things/thing_1'))?.maxBodyBytes({} as never)).toBe(7);
  });

  it('is the default where no operation answers', async () => {
    const { policyOf } = app();
    expect(await policyOf('GET', '/api/nothing-here')).toBe(DEFAULT_POLICY);
    expect(await policyOf('DELETE', '/api/things/thing_1')).toBe(DEFAULT_POLICY);
  });
});
