import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { users } from '../../src/db/schema';
import { api, db, uid } from '../helpers';

// Its own file: storage is shared within a file, and bootstrap works only while no admin user exists.

const SECRET = 'bootstrap-secret-for-tests';
const app = createApp();

/** Calls the app with BOOTSTRAP_SECRET set, which the test configuration leaves unset. */
async function withSecret(json: Record<string, unknown>, key?: string) {
  const ctx = createExecutionContext();
  const headers: Record<string, string> = { 'Content-Type': 'application/json', ...(key ? { Authorization: `Bearer ${key}` } : {}) };
  const request = new Request('http://store.test/api/auth/bootstrap', { method: 'POST', headers, body: JSON.stringify(json) });
  const response = await app.fetch(request, { ...env, BOOTSTRAP_SECRET: SECRET }, ctx);
  await waitOnExecutionContext(ctx);
  return { status: response.status, headers: response.headers, body: (await response.json()) as any };
}

const admin = () => ({ email: `admin-${uid()}@example.test`, password: 'first-admin-password', name: 'First Admin' });

describe('POST /api/auth/bootstrap', () => {
  it('does not exist while no BOOTSTRAP_SECRET is configured', async () => {
    const res = await api('/api/auth/bootstrap', { method: 'POST', json: { secret: 'anything', ...admin() } });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('NOT_FOUND');
  });

  it('refuses a wrong secret with 403 and creates nobody', async () => {
    for (const secret of ['wrong', `${SECRET}x`, SECRET.slice(0, -1)]) {
      const res = await withSecret({ secret, ...admin() });
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('AUTHORIZATION_ERROR');
    }
    expect(await db().select().from(users).where(eq(users.roleId, 'admin'))).toEqual([]);
  });

  it('validates the body with 422 listing every field', async () => {
    const res = await withSecret({ secret: SECRET, email: 'nope', password: 'short', role: 'admin' });
    expect(res.status).toBe(422);
    expect(res.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['email', 'password', 'role']);
  });

  it('creates exactly one admin user, even when asked twice at once, and then refuses with 409', async () => {
    const [a, b] = await Promise.all([withSecret({ secret: SECRET, ...admin() }), withSecret({ secret: SECRET, ...admin() })]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    const won = a.status === 201 ? a : b;
    const lost = a.status === 201 ? b : a;
    expect(lost.body.error).toMatchObject({ code: 'CONFLICT', message: expect.stringMatching(/already bootstrapped/) });
    expect(won.body.data.user).toMatchObject({ role: 'admin', status: 'active', name: 'First Admin' });
    expect(JSON.stringify(won.body)).not.toContain('first-admin-password');

    const admins = await db().select().from(users).where(eq(users.roleId, 'admin'));
    expect(admins.map((u) => u.id)).toEqual([won.body.data.user.id]);
    expect(admins[0]!.passwordHash).toMatch(/^pbkdf2-sha256\$100000\$/);

    // The admin's token holds every permission.
    const listed = await api('/api/customers', { key: won.body.data.token });
    expect(listed.status).toBe(200);
    expect((await withSecret({ secret: SECRET, ...admin() })).status).toBe(409);
  });

  it('checks the secret before telling whether the store is bootstrapped', async () => {
    const res = await withSecret({ secret: 'wrong', ...admin() });
    expect(res.status).toBe(403);
  });
});
