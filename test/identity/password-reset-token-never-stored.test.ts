import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { notifications } from '../../src/db/schema';
import { passwordResetTokens } from '../../src/db/schema/notifications';
import { sha256Hex } from '../../src/lib/crypto';
import { requestPasswordReset } from '../../src/modules/auth/password-reset';
import { adminKey, api, db, expectError, insertUser } from '../helpers';
import { resendInbox, sendNotification, tokenOfLink } from '../notifications/reset-inbox';

// A reset token leaves the store only in the email its provider gets. The notification log (every
// column of `notifications`, and so GET /api/notifications) holds the message with the token
// redacted from the moment it is written, whatever the provider and whatever the template prints.

const RESET_PAGE = 'http://localhost:3000/reset-password';
const REDACTED_LINK = `${RESET_PAGE}?token=%5Bredacted%5D`;

const confirm = (token: string, password: string) => api('/api/auth/password-reset/confirm', { method: 'POST', json: { token, password } });
const storedRow = async (id: string) => (await db().select().from(notifications).where(eq(notifications.id, id)))[0]!;
const everyNotification = () => db().select().from(notifications);
const readThroughApi = async (id: string, key: string) => {
  const list = await api('/api/notifications?template=password_reset&limit=100', { key });
  const one = await api(`/api/notifications/${id}`, { key });
  expect([list.status, one.status]).toEqual([200, 200]);
  return [list.body, one.body];
};
/** Asks for a reset as the endpoint does, without queueing it, so only the consumer a test runs sends it. */
async function requestReset(email: string): Promise<string> {
  const id = await requestPasswordReset(db(), env, email);
  expect(id).toEqual(expect.any(String));
  return id!;
}

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === 'object') return Object.values(value).flatMap(strings);
  return [];
}

/**
 * Every reset token, live or spent, that `value` holds anywhere: each 43-character run of token
 * characters (a token's length) whose SHA-256 is a stored reset's. It needs no token in hand, so it
 * also checks what no test captured.
 */
async function resetTokensIn(...values: unknown[]): Promise<string[]> {
  const hashes = new Set((await db().select({ hash: passwordResetTokens.tokenHash }).from(passwordResetTokens)).map((r) => r.hash));
  const found: string[] = [];
  for (const text of values.flatMap(strings)) {
    for (const run of text.match(/[A-Za-z0-9_-]{43,}/g) ?? []) {
      for (let i = 0; i + 43 <= run.length; i++) {
        const candidate = run.slice(i, i + 43);
        if (hashes.has(await sha256Hex(candidate))) found.push(candidate);
      }
    }
  }
  return found;
}

/** What the Worker prints while `run` runs: every console line. */
async function printedDuring(run: () => Promise<unknown>): Promise<string[]> {
  const lines: string[] = [];
  const keep = (...args: unknown[]) => void lines.push(args.map(String).join(' '));
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) vi.spyOn(console, method).mockImplementation(keep);
  try {
    await run();
  } finally {
    vi.restoreAllMocks();
  }
  return lines;
}

afterEach(() => vi.restoreAllMocks());

describe('a password-reset token never reaches the notification log', () => {
  it('through the API with the outbox provider (the deployed default): the row, the list and the read hold the message redacted', { timeout: 60_000 }, async () => {
    const key = await adminKey();
    const { user: admin } = await insertUser({ role: 'admin' });
    expect((await api('/api/auth/password-reset', { method: 'POST', json: { email: admin.email } })).status).toBe(202);
    const written = (await everyNotification()).find((n) => n.recipient === admin.email)!;
    expect(written.template).toBe('password_reset');
    expect(await resetTokensIn(written)).toEqual([]);

    // The Worker's own consumer sends it with the outbox.
    await expect.poll(async () => (await storedRow(written.id)).status, { timeout: 30_000, interval: 250 }).toBe('sent');
    const sent = await storedRow(written.id);
    expect(sent).toMatchObject({ provider: 'outbox', data: expect.objectContaining({ token: '[redacted]', resetUrl: REDACTED_LINK }) });
    expect(sent.body).toContain(REDACTED_LINK);
    expect(sent.bodyHtml).toContain(`href="${REDACTED_LINK}"`);
    const answers = await readThroughApi(written.id, key);
    expect(JSON.stringify(answers)).toContain(REDACTED_LINK);
    expect(await resetTokensIn(await everyNotification(), answers)).toEqual([]);
  });

  it('with Resend: the provider gets a link whose token signs in, once; the row never holds it, before or after the send', async () => {
    const key = await adminKey();
    const { user: admin } = await insertUser({ role: 'admin' });
    const id = await requestReset(admin.email);
    const before = [await storedRow(id), await readThroughApi(id, key)];

    const inbox = await resendInbox();
    expect((await sendNotification(id, inbox.settings)).acked()).toBe(true);
    const [email] = await inbox.emails();
    expect(email!.to).toEqual([admin.email]);
    const token = tokenOfLink(email!.text)!;
    const link = `${RESET_PAGE}?token=${token}`;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(email!.text).toContain(`send this code with your new password to POST /api/auth/password-reset/confirm: ${token}`);
    expect(email!.html).toContain(`<a href="${link}">${link}</a>`);

    const after = [await everyNotification(), await readThroughApi(id, key)];
    expect(await storedRow(id)).toMatchObject({ status: 'sent', provider: 'resend', providerMessageId: 're_msg_1' });
    for (const seen of [before, after]) {
      expect(JSON.stringify(seen)).not.toContain(token);
      expect(JSON.stringify(seen)).not.toContain(link);
    }

    const signedIn = await confirm(token, 'the admin chose this');
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.data.user.id).toBe(admin.id);
    expectError(await confirm(token, 'and then this one'), 422, 'VALIDATION_ERROR');
  });

  it('with the outbox, the real link is printed only under ENVIRONMENT=development; elsewhere no log line holds it', async () => {
    const { user: elsewhere } = await insertUser();
    const quiet = await requestReset(elsewhere.email);
    const productionLines = await printedDuring(() => sendNotification(quiet, { ENVIRONMENT: 'production' }));
    expect(await storedRow(quiet)).toMatchObject({ status: 'sent', provider: 'outbox' });
    expect(await resetTokensIn(productionLines, await storedRow(quiet))).toEqual([]);

    const { user: developer } = await insertUser();
    const local = await requestReset(developer.email);
    const developmentLines = await printedDuring(() => sendNotification(local, { ENVIRONMENT: 'development' }));
    const printed = developmentLines.map((line) => JSON.parse(line)).find((line) => line.message === 'outbox (development only): the message as sent');
    expect(printed).toMatchObject({ notificationId: local, to: developer.email });
    const token = tokenOfLink(printed.text)!;
    expect(JSON.stringify(await storedRow(local))).not.toContain(token);
    expect((await confirm(token, 'found it in the dev log')).status).toBe(200);
  });

  it('a custom template that prints {{token}} and {{resetUrl}} is stored redacted; the email sent has them', async () => {
    const key = await adminKey();
    const edited = await api('/api/notifications/templates/tmpl_password_reset_email', {
      method: 'PATCH',
      key,
      json: { subject: 'Your code {{token}}', body: 'Code: {{token}}\nLink: {{resetUrl}}', bodyHtml: '<p>{{token}}</p><a href="{{resetUrl}}">reset</a>' },
    });
    expect(edited.status).toBe(200);
    try {
      const { user } = await insertUser();
      const id = await requestReset(user.email);
      expect(await storedRow(id)).toMatchObject({
        subject: 'Your code [redacted]',
        body: `Code: [redacted]\nLink: ${REDACTED_LINK}`,
        bodyHtml: `<p>[redacted]</p><a href="${REDACTED_LINK}">reset</a>`,
        data: expect.objectContaining({ token: '[redacted]', resetUrl: REDACTED_LINK }),
      });

      const inbox = await resendInbox();
      await sendNotification(id, inbox.settings);
      const [email] = await inbox.emails();
      const token = tokenOfLink(email!.text)!;
      expect(email).toMatchObject({
        subject: `Your code ${token}`,
        text: `Code: ${token}\nLink: ${RESET_PAGE}?token=${token}`,
        html: `<p>${token}</p><a href="${RESET_PAGE}?token=${token}">reset</a>`,
      });
      expect(JSON.stringify(await storedRow(id))).not.toContain(token);
      expect((await confirm(token, 'custom template works')).status).toBe(200);
    } finally {
      expect((await api('/api/notifications/templates/tmpl_password_reset_email/reset', { method: 'POST', key })).status).toBe(200);
    }
  });

  it('a consumer without JWT_SECRET cannot make the link: the message fails for good, saying why, and sends nothing', async () => {
    const { user } = await insertUser();
    const id = await requestReset(user.email);
    const inbox = await resendInbox();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect((await sendNotification(id, { ...inbox.settings, JWT_SECRET: '' })).acked()).toBe(true);
    expect(await storedRow(id)).toMatchObject({ status: 'failed', lastError: 'password_reset: JWT_SECRET is not set, so the reset link cannot be made' });
    expect(await inbox.emails()).toEqual([]);
  });
});
