import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';

// Its own file: storage is per file, and setup works only while the store has no admin user.

const SECRET = 'bootstrap-secret-for-admin-panel-tests';
const ORIGIN = 'https://shop.example';
const app = createApp();

/** The panel as deployed: ENVIRONMENT=production (Secure cookies) and a BOOTSTRAP_SECRET. */
async function call(path: string, init: RequestInit = {}) {
  const ctx = createExecutionContext();
  const response = await app.fetch(new Request(`${ORIGIN}${path}`, { redirect: 'manual', ...init }), { ...env, ENVIRONMENT: 'production', BOOTSTRAP_SECRET: SECRET }, ctx);
  await waitOnExecutionContext(ctx);
  return { res: response, html: await response.text() };
}

const cookies = (res: Response) => res.headers.getAll('Set-Cookie');

async function setup(fields: Record<string, string>) {
  const form = await call('/admin/setup');
  const csrfCookie = cookies(form.res).find((c: string) => c.startsWith('admin_csrf='))!;
  const token = /name="_csrf" value="([^"]+)"/.exec(form.html)![1]!;
  return call('/admin/setup', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: ORIGIN, Cookie: csrfCookie.split(';')[0]!, 'CF-Connecting-IP': '198.51.100.7' },
    body: new URLSearchParams({ _csrf: token, ...fields }),
  });
}

describe('admin panel setup of a deployed store', () => {
  it('creates the first admin with the bootstrap secret, once, and signs it in with a Secure cookie', async () => {
    const owner = { email: 'owner@shop.example', password: 'first-admin-password', name: 'Owner' };
    expect((await call('/admin/sign-in')).html).toContain('href="/admin/setup"');

    const wrong = await setup({ ...owner, secret: 'guess' });
    expect(wrong.res.status).toBe(422);
    expect(wrong.html).toMatch(/id="f-secret-error">[^<]*BOOTSTRAP_SECRET/);

    const right = await setup({ ...owner, secret: SECRET });
    expect(right.res.status).toBe(303);
    expect(right.res.headers.get('Location')).toBe('/admin');
    const session = cookies(right.res).find((c: string) => c.startsWith('admin_session='))!;
    expect(session).toMatch(/; Secure/);
    expect(session).toMatch(/HttpOnly/);

    const dashboard = await call('/admin', { headers: { Cookie: session.split(';')[0]! } });
    expect(dashboard.res.status).toBe(200);
    expect(dashboard.res.headers.get('Cache-Control')).toBe('no-store');
    expect(dashboard.res.headers.get('Content-Security-Policy')).toContain("frame-ancestors 'none'");

    const again = await setup({ ...owner, email: 'second@shop.example', secret: SECRET });
    expect(again.res.status).toBe(409);
    expect(again.html).toContain('already bootstrapped');
  });
});
