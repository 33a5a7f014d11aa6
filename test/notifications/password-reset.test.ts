import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { notifications } from '../../src/db/schema';
import { passwordResetTokens } from '../../src/db/schema/notifications';
import { sha256Hex } from '../../src/lib/crypto';
import { api, db, expectError, insertUser, TEST_PASSWORD } from '../helpers';
import { resetEmail } from './reset-inbox';

const requestReset = (email: string) => api('/api/auth/password-reset', { method: 'POST', json: { email } });
const confirm = (token: string, password: string) => api('/api/auth/password-reset/confirm', { method: 'POST', json: { token, password } });
const resetEmails = async (to: string) => (await db().select().from(notifications).where(eq(notifications.recipient, to))).filter((n) => n.template === 'password_reset');

describe('password reset', () => {
  it('answers an unknown email exactly as a known one, and emails only the known one', async () => {
    const { user } = await insertUser({ email: `known-${crypto.randomUUID().slice(0, 8)}@example.test` });
    const known = await requestReset(user.email);
    const unknown = await requestReset(`nobody-${crypto.randomUUID().slice(0, 8)}@example.test`);
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(unknown.body).toEqual(known.body);
    expect(known.body).toEqual({ success: true, data: null, message: 'If an account exists for this email, a reset link is on its way' });
    const [email] = await resetEmails(user.email);
    expect(email).toMatchObject({ channel: 'email', template: 'password_reset', recipientUserId: user.id, subject: expect.stringContaining('reset your password') });
    // The log keeps the message with its link redacted; only the email sent holds the token.
    expect(email!.body).toContain('http://localhost:3000/reset-password?token=%5Bredacted%5D');
    expect(email!.data).toMatchObject({ token: '[redacted]' });
    expect(await db().select().from(passwordResetTokens)).toHaveLength(1);
    // A second request within the minute sends nothing more.
    expect((await requestReset(user.email)).status).toBe(202);
    expect(await resetEmails(user.email)).toHaveLength(1);
  });

  it('sets the password once with a token: single use, sessions retired, the old password gone', async () => {
    const { user, token: oldJwt } = await insertUser();
    const { token } = await resetEmail(user.email);
    // Only the hash of the token is stored.
    const [stored] = await db().select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, user.id));
    expect(stored!.tokenHash).toBe(await sha256Hex(token));

    const done = await confirm(token, 'a brand new password');
    expect(done.status).toBe(200);
    expect(done.body.data.user.id).toBe(user.id);
    expectError(await api('/api/auth/me', { key: oldJwt }), 401, 'AUTHENTICATION_ERROR');
    expect((await api('/api/auth/me', { key: done.body.data.token })).status).toBe(200);
    expectError(await api('/api/auth/login', { method: 'POST', json: { email: user.email, password: TEST_PASSWORD } }), 401, 'AUTHENTICATION_ERROR');
    expect((await api('/api/auth/login', { method: 'POST', json: { email: user.email, password: 'a brand new password' } })).status).toBe(200);

    const again = await confirm(token, 'yet another password');
    expectError(again, 422, 'VALIDATION_ERROR');
    expect(again.body.error.details[0].field).toBe('token');
  });

  it('refuses an expired token and an unknown one; concurrent uses of one token change the password once', async () => {
    const { user } = await insertUser();
    const { token } = await resetEmail(user.email);
    await db()
      .update(passwordResetTokens)
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where(eq(passwordResetTokens.userId, user.id));
    expectError(await confirm(token, 'too late password'), 422, 'VALIDATION_ERROR');
    expectError(await confirm('not-a-token', 'whatever password'), 422, 'VALIDATION_ERROR');
    expectError(await api('/api/auth/password-reset/confirm', { method: 'POST', json: { token: 'x', password: 'short' } }), 422, 'VALIDATION_ERROR');

    const other = await insertUser();
    const { token: fresh } = await resetEmail(other.user.email);
    const results = await Promise.all([confirm(fresh, 'first password!'), confirm(fresh, 'second password!')]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 422]);
  });
});
