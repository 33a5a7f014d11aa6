import { env } from 'cloudflare:workers';
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { notifications } from '../../src/db/schema';
import { newId } from '../../src/lib/ids';
import { db } from '../helpers';

it('the migration takes the live token out of password-reset emails stored before tokens were derived', async () => {
  const token = 'Lg7T0kenOfAnOldResetEmailxxxxxxxxxxxxxxxxx';
  const url = `https://shop.example/reset?token=${token}`;
  const legacy = {
    id: newId('ntf'),
    channel: 'email' as const,
    recipient: 'admin@example.com',
    template: 'password_reset',
    subject: `Reset ${token}`,
    body: `Open ${url}`,
    bodyHtml: `<a href="${url}">reset</a>`,
    data: { token, resetUrl: url, email: 'admin@example.com' },
    status: 'sent' as const,
  };
  const other = { ...legacy, id: newId('ntf'), template: 'order_confirmation', data: { token, resetUrl: url } };
  await db().insert(notifications).values([legacy, other]);
  const migration = env.TEST_MIGRATIONS.find((m) => m.name.endsWith('_redact_stored_reset_tokens.sql'))!;
  for (const query of migration.queries) await env.DB.prepare(query).run();

  const [after] = await db().select().from(notifications).where(eq(notifications.id, legacy.id));
  expect(JSON.stringify(after)).not.toContain(token);
  expect(after).toMatchObject({ subject: 'Reset [redacted]', body: 'Open https://shop.example/reset?token=[redacted]', data: { token: '[redacted]', email: 'admin@example.com' } });
  const [untouched] = await db().select().from(notifications).where(eq(notifications.id, other.id));
  expect(untouched!.body).toContain(token);
});
