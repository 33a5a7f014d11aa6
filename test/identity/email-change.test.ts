import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { passwordResetTokens, users } from '../../src/db/schema';
import { sha256Hex } from '../../src/lib/crypto';
import { ID_PREFIX, newId } from '../../src/lib/ids';
import { adminKey, api, db, expectError, insertUser, TEST_PASSWORD, uid } from '../helpers';

// The email is the sign-in identity: a customer changing its own proves it with its current
// password, and any change of it (by the customer or by staff) retires the account's sessions.

const patch = (token: string, id: string, json: Record<string, unknown>) => api(`/api/customers/${id}`, { method: 'PATCH', key: token, json });
const newEmail = () => `moved-${uid()}@example.test`;
const rowOf = async (id: string) => (await db().select().from(users).where(eq(users.id, id)))[0]!;
const signedIn = async (token: string) => (await api('/api/auth/me', { key: token })).status;
const login = (email: string, password = TEST_PASSWORD) => api('/api/auth/login', { method: 'POST', json: { email, password } });

/** An unused reset link of the account, as POST /api/auth/password-reset leaves one (minus the email). */
async function outstandingResetLink(userId: string) {
  const token = `rst_${uid()}${crypto.randomUUID()}`;
  const expiresAt = new Date(Date.now() + 60 * 60 * 1000).toISOString();
  await db()
    .insert(passwordResetTokens)
    .values({ id: newId(ID_PREFIX.passwordReset), userId, tokenHash: await sha256Hex(token), expiresAt, usedAt: null });
  return token;
}

describe('a customer changing its own email', () => {
  it('is 422 on currentPassword when it is missing or wrong, and nothing changes', async () => {
    const { user, token } = await insertUser();
    const before = await rowOf(user.id);
    for (const [body, message] of [
      [{ email: newEmail(), name: 'Not this either' }, /required/],
      [{ email: newEmail(), name: 'Not this either', currentPassword: 'not the password' }, /incorrect/],
    ] as const) {
      for (const id of ['me', user.id]) {
        const res = await patch(token, id, body);
        expectError(res, 422, 'VALIDATION_ERROR');
        expect(res.body.error.details).toEqual([{ field: 'currentPassword', code: expect.any(String), message: expect.stringMatching(message) }]);
      }
    }
    expect(await rowOf(user.id)).toEqual(before);
    expect(await signedIn(token)).toBe(200);
    expect((await login(user.email)).status).toBe(200);
  });

  it('changes it with the right password, retires its tokens and answers with a fresh one', async () => {
    const { user, token } = await insertUser();
    const otherSession = (await login(user.email)).body.data.token as string;
    const resetLink = await outstandingResetLink(user.id);
    const email = newEmail();

    const res = await patch(token, 'me', { email: email.toUpperCase(), currentPassword: TEST_PASSWORD });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.success).toBe(true);
    expect(res.body.data).toMatchObject({ id: user.id, email, session: { token: expect.any(String), expiresIn: expect.any(Number) } });
    expect(JSON.stringify(res.body)).not.toContain(TEST_PASSWORD);

    expectError(await api('/api/auth/me', { key: token }), 401, 'AUTHENTICATION_ERROR');
    expect(await signedIn(otherSession)).toBe(401);
    const fresh = res.body.data.session.token as string;
    const me = await api('/api/customers/me', { key: fresh });
    expect(me.body.data).toMatchObject({ id: user.id, email });
    expect(me.body.data).not.toHaveProperty('session');

    expect((await login(email)).status).toBe(200);
    expectError(await login(user.email), 401, 'AUTHENTICATION_ERROR');
    // The reset link went to the old address: it is spent.
    expectError(await api('/api/auth/password-reset/confirm', { method: 'POST', json: { token: resetLink, password: 'taken-over-123' } }), 422, 'VALIDATION_ERROR');
  });

  it('needs no password, and retires nothing, when the email stays the same or is not sent', async () => {
    const { user, token } = await insertUser();
    const same = await patch(token, user.id, { email: user.email.toUpperCase(), name: 'Same Email' });
    expect(same.status, JSON.stringify(same.body)).toBe(200);
    expect(same.body.data).toMatchObject({ email: user.email, name: 'Same Email' });
    expect(same.body.data).not.toHaveProperty('session');
    expect((await patch(token, 'me', { phone: '+49 30 1234567' })).status).toBe(200);
    expect(await signedIn(token)).toBe(200);
  });

  it('checks the password before the uniqueness of the new email', async () => {
    const { token } = await insertUser();
    const other = await insertUser();
    expectError(await patch(token, 'me', { email: other.user.email }), 422, 'VALIDATION_ERROR');
    expectError(await patch(token, 'me', { email: other.user.email, currentPassword: TEST_PASSWORD }), 409, 'CONFLICT');
    expect(await signedIn(token)).toBe(200);
  });
});

describe("staff changing a customer's email", () => {
  it("needs no password and retires the customer's tokens, but not the caller's", async () => {
    const { user, token } = await insertUser();
    const resetLink = await outstandingResetLink(user.id);
    const key = await adminKey();
    const email = newEmail();
    const res = await patch(key, user.id, { email });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({ id: user.id, email });
    expect(res.body.data).not.toHaveProperty('session');
    expect(await signedIn(token)).toBe(401);
    expect((await api('/api/customers', { key })).status).toBe(200);
    expect((await login(email)).status).toBe(200);
    expectError(await api('/api/auth/password-reset/confirm', { method: 'POST', json: { token: resetLink, password: 'taken-over-123' } }), 422, 'VALIDATION_ERROR');
  });

  it('works the same for a staff user signed in with a JWT', async () => {
    const { user, token } = await insertUser();
    const admin = await insertUser({ role: 'admin' });
    const res = await patch(admin.token, user.id, { email: newEmail() });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).not.toHaveProperty('session');
    expect(await signedIn(token)).toBe(401);
    expect(await signedIn(admin.token)).toBe(200);
  });

  it('leaves the tokens alone when staff change anything else', async () => {
    const { user, token } = await insertUser();
    expect((await patch(await adminKey(), user.id, { name: 'Renamed', email: user.email })).status).toBe(200);
    expect(await signedIn(token)).toBe(200);
  });
});
