import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { events, users } from '../../src/db/schema';
import { signUserToken } from '../../src/lib/jwt';
import { PBKDF2_ITERATIONS } from '../../src/lib/password';
import { adminKey, api, type ApiResponse, db, insertUser, uid } from '../helpers';

const PASSWORD = 'sesame-open-42';
const newEmail = () => `shopper-${uid()}@example.test`;
const register = (json: Record<string, unknown>) => api('/api/auth/register', { method: 'POST', json });
const login = (email: string, password: string) => api('/api/auth/login', { method: 'POST', json: { email, password } });

function expect401(res: ApiResponse, message?: RegExp) {
  expect(res.status).toBe(401);
  expect(res.body.success).toBe(false);
  expect(res.body.error.code).toBe('AUTHENTICATION_ERROR');
  expect(res.headers.get('WWW-Authenticate')).toBe('Bearer');
  if (message) expect(res.body.error.message).toMatch(message);
}

function expectNoSecret(res: ApiResponse, password: string) {
  const text = JSON.stringify(res.body);
  expect(text).not.toContain(password);
  expect(text).not.toMatch(/passwordHash|pbkdf2|tokenVersion/);
}

const b64url = (value: unknown) => btoa(JSON.stringify(value)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

describe('POST /api/auth/register', () => {
  it('creates a customer, signs it in and emits customer.registered', async () => {
    const email = newEmail();
    const res = await register({ email: email.toUpperCase(), password: PASSWORD, name: 'Ada Lovelace', phone: '+44 20 7946 0000' });
    expect(res.status).toBe(201);
    expect(res.body.success).toBe(true);
    const { token, expiresIn, user } = res.body.data;
    expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(expiresIn).toBe(86400);
    expect(user).toMatchObject({ email, name: 'Ada Lovelace', phone: '+442079460000', role: 'customer', status: 'active', lastLoginAt: null });
    expect(res.headers.get('Location')).toBe(`/api/customers/${user.id}`);
    expectNoSecret(res, PASSWORD);

    const emitted = await db().select().from(events).where(eq(events.type, 'customer.registered'));
    expect(emitted.map((e) => e.data)).toContainEqual({ customerId: user.id, email, name: 'Ada Lovelace' });

    const me = await api('/api/auth/me', { key: token });
    expect(me.status).toBe(200);
    expect(me.body.data).toMatchObject({ id: user.id, email, addresses: [] });
  });

  it('stores a PBKDF2 hash at 100,000 iterations that does not contain the password', async () => {
    expect(PBKDF2_ITERATIONS).toBe(100_000);
    const email = newEmail();
    expect((await register({ email, password: PASSWORD })).status).toBe(201);
    const row = await db().query.users.findFirst({ where: eq(users.email, email) });
    expect(row!.passwordHash).toMatch(/^pbkdf2-sha256\$100000\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(row!.passwordHash).not.toContain(PASSWORD);
  });

  it('refuses an email already in use, whatever its case, with 409', async () => {
    const email = newEmail();
    expect((await register({ email, password: PASSWORD })).status).toBe(201);
    const res = await register({ email: `  ${email.toUpperCase()}`.trim(), password: PASSWORD });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('CONFLICT');
    expect(res.body.error.details).toEqual([{ field: 'email', code: 'already_exists', message: 'email is already taken by another resource' }]);
  });

  it('lists every invalid field with 422: short password, bad email, unknown field', async () => {
    const res = await register({ email: 'not-an-email', password: 'short', admin: true });
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    const fields = res.body.error.details.map((d: { field: string }) => d.field);
    expect(fields).toEqual(expect.arrayContaining(['email', 'password', 'admin']));
    expect(res.body.error.details).toContainEqual({ field: 'password', code: 'too_small', message: 'password must be at least 8 characters' });
    expectNoSecret(res, 'short');
  });

  it('cannot pick its own role or status', async () => {
    const res = await register({ email: newEmail(), password: PASSWORD, role: 'admin', status: 'active' });
    expect(res.status).toBe(422);
    expect(res.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['role', 'status']);
  });

  it('answers a body that is not JSON in the error envelope', async () => {
    const res = await api('/api/auth/register', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"email":' });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_REQUEST');
  });
});

describe('POST /api/auth/login', () => {
  it('signs in with the right password, in any email case, and records lastLoginAt', async () => {
    const email = newEmail();
    const { body } = await register({ email, password: PASSWORD });
    const before = Date.now();
    const res = await login(email.toUpperCase(), PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body.data.user.id).toBe(body.data.user.id);
    expect(Date.parse(res.body.data.user.lastLoginAt)).toBeGreaterThanOrEqual(before - 1000);
    expectNoSecret(res, PASSWORD);
    const row = await db().query.users.findFirst({ where: eq(users.id, body.data.user.id) });
    expect(row!.lastLoginAt).toBe(res.body.data.user.lastLoginAt);
    expect((await api('/api/auth/me', { key: res.body.data.token })).status).toBe(200);
  });

  it('gives the same 401 for an unknown email and a wrong password', async () => {
    const email = newEmail();
    await register({ email, password: PASSWORD });
    const wrong = await login(email, 'wrong-password-1');
    const unknown = await login(newEmail(), PASSWORD);
    expect401(wrong, /^Invalid email or password$/);
    expect401(unknown, /^Invalid email or password$/);
    expect(wrong.body).toEqual(unknown.body);
  });

  it('refuses a disabled account and an account without a password', async () => {
    const { user, password } = await insertUser();
    await db().update(users).set({ status: 'disabled' }).where(eq(users.id, user.id));
    expect401(await login(user.email, password), /disabled/);

    const noPassword = await insertUser();
    await db().update(users).set({ passwordHash: null }).where(eq(users.id, noPassword.user.id));
    expect401(await login(noPassword.user.email, noPassword.password), /^Invalid email or password$/);
  });

  it('signs in vendor and admin users too, with their role', async () => {
    const { user, password } = await insertUser({ role: 'admin' });
    const res = await login(user.email, password);
    expect(res.status).toBe(200);
    expect(res.body.data.user.role).toBe('admin');
  });

  it('validates the body with 422', async () => {
    const res = await api('/api/auth/login', { method: 'POST', json: { email: 'x@example.test' } });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([{ field: 'password', code: 'required', message: 'password is required' }]);
  });
});

describe('GET /api/auth/me', () => {
  it('needs a signed-in user: 401 without a credential, 403 for an API key', async () => {
    expect401(await api('/api/auth/me'));
    const res = await api('/api/auth/me', { key: await adminKey() });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('AUTHORIZATION_ERROR');
  });

  it('returns the user with its addresses and without secrets', async () => {
    const { user, token, password } = await insertUser();
    const added = await api('/api/customers/me/addresses', { method: 'POST', key: token, json: { line1: '1 Main St', city: 'Springfield', country: 'US' } });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const res = await api('/api/auth/me', { key: token });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id: user.id, role: 'customer', addresses: [expect.objectContaining({ line1: '1 Main St', country: 'US' })] });
    expectNoSecret(res, password);
  });
});

describe('POST /api/auth/password', () => {
  const change = (token: string, json: Record<string, unknown>) => api('/api/auth/password', { method: 'POST', key: token, json });

  it('retires every earlier token and returns a fresh one', async () => {
    const email = newEmail();
    const first = (await register({ email, password: PASSWORD })).body.data.token;
    const second = (await login(email, PASSWORD)).body.data.token;
    const res = await change(first, { currentPassword: PASSWORD, newPassword: 'a-brand-new-secret' });
    expect(res.status).toBe(200);
    expectNoSecret(res, 'a-brand-new-secret');
    const fresh = res.body.data.token;

    for (const old of [first, second]) {
      expect401(await api('/api/auth/me', { key: old }));
      expect401(await api('/api/products', { key: old }));
    }
    expect((await api('/api/auth/me', { key: fresh })).status).toBe(200);
    expect401(await login(email, PASSWORD));
    expect((await login(email, 'a-brand-new-secret')).status).toBe(200);
  });

  it('answers a wrong current password with 422 on currentPassword, and keeps the password', async () => {
    const { user, token, password } = await insertUser();
    const res = await change(token, { currentPassword: 'not-the-password', newPassword: 'another-password' });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([{ field: 'currentPassword', code: 'invalid_value', message: 'currentPassword is incorrect' }]);
    expect((await api('/api/auth/me', { key: token })).status).toBe(200);
    expect((await login(user.email, password)).status).toBe(200);
  });

  it('holds the new password to the rules and refuses API keys', async () => {
    const { token, password } = await insertUser();
    const res = await change(token, { currentPassword: password, newPassword: 'short' });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([{ field: 'newPassword', code: 'too_small', message: 'newPassword must be at least 8 characters' }]);
    expect((await change(await adminKey(), { currentPassword: 'x', newPassword: 'long-enough-1' })).status).toBe(403);
    expect401(await api('/api/auth/password', { method: 'POST', json: { currentPassword: 'x', newPassword: 'long-enough-1' } }));
  });
});

describe('user tokens that must be refused', () => {
  const secret = env.JWT_SECRET!;

  async function refusedEverywhere(token: string, message?: RegExp) {
    expect401(await api('/api/products', { key: token }), message);
    expect401(await api('/api/auth/me', { key: token }), message);
  }

  it('refuses a missing token where a user is needed', async () => {
    expect401(await api('/api/auth/me'), /signed-in user/);
  });

  it('refuses a malformed token', async () => {
    await refusedEverywhere('not.a.jwt!');
    await refusedEverywhere('eyJhbGciOiJIUzI1NiJ9.bm90IGpzb24.c2ln');
  });

  it('refuses an expired token', async () => {
    const { user } = await insertUser();
    const { token } = await signUserToken(user.id, user.tokenVersion, secret, 60, Date.now() - 2 * 3600_000);
    await refusedEverywhere(token, /Invalid or expired token/);
  });

  it('refuses a token whose payload was changed', async () => {
    const { user, token } = await insertUser();
    const other = await insertUser();
    const [header, payload, signature] = token.split('.');
    const claims = JSON.parse(atob(payload!.replace(/-/g, '+').replace(/_/g, '/')));
    await refusedEverywhere(`${header}.${b64url({ ...claims, sub: other.user.id })}.${signature}`);
    // One changed character of the payload, too.
    const flipped = payload!.slice(0, -2) + (payload!.at(-2) === 'A' ? 'B' : 'A') + payload!.at(-1);
    await refusedEverywhere(`${header}.${flipped}.${signature}`);
    expect(user.id).not.toBe(other.user.id);
  });

  it('refuses a token signed with another secret', async () => {
    const { user } = await insertUser();
    const { token } = await signUserToken(user.id, user.tokenVersion, 'some-other-secret', 3600);
    await refusedEverywhere(token);
  });

  it('refuses an unsigned token (alg: none)', async () => {
    const { user } = await insertUser({ role: 'admin' });
    const now = Math.floor(Date.now() / 1000);
    const claims = { sub: user.id, ver: 0, iat: now, exp: now + 3600, iss: 'store-api' };
    await refusedEverywhere(`${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(claims)}.`);
  });

  it('refuses the token of a deleted user and of a disabled user', async () => {
    const gone = await insertUser();
    expect((await api('/api/auth/me', { key: gone.token })).status).toBe(200);
    expect((await api(`/api/customers/${gone.user.id}`, { method: 'DELETE', key: await adminKey() })).status).toBe(204);
    await refusedEverywhere(gone.token);

    const disabled = await insertUser();
    await db().update(users).set({ status: 'disabled' }).where(eq(users.id, disabled.user.id));
    await refusedEverywhere(disabled.token, /disabled/);
  });
});
