import { env } from 'cloudflare:workers';
import { requestPasswordReset } from '../../src/modules/auth/password-reset';
import { db } from '../helpers';
import { openChannel, runQueue } from '../webhooks/receiver-setup';

// Password-reset tokens are read the way their user reads them: from the email the provider got.
// The notifications consumer runs with the real Resend provider aimed at a loopback channel of the
// test receiver, which records the request Resend would get.

export interface SentEmail {
  to: string[];
  subject: string;
  text: string;
  html?: string;
}

/** Resend aimed at a fresh loopback channel: the settings to run the consumer with, and the emails it received. */
export async function resendInbox() {
  const channel = await openChannel({ answerBody: JSON.stringify({ id: 're_msg_1' }) });
  return {
    settings: { NOTIFICATIONS_EMAIL_PROVIDER: 'resend', RESEND_API_KEY: 're_test_key', RESEND_API_URL: channel.url },
    async emails(): Promise<SentEmail[]> {
      return (await channel.requests()).map((request) => JSON.parse(request.body) as SentEmail);
    },
  };
}

/** The token of the reset link in a text, if it has one. */
export const tokenOfLink = (text: string) => text.match(/\/reset-password\?token=([A-Za-z0-9_-]+)/)?.[1];

/** Runs the notifications consumer on one message with these settings over the test's env. */
export const sendNotification = (notificationId: string, settings: Record<string, string> = {}) => runQueue('notifications', [{ body: { notificationId } }], settings as never);

/**
 * Asks for a reset as POST /api/auth/password-reset does, but without its queue message (so the
 * Worker's own consumer does not send it first), and sends the email through Resend: what the
 * account's inbox gets, and the token its link carries.
 */
export async function resetEmail(email: string) {
  const notificationId = await requestPasswordReset(db(), env, email);
  if (!notificationId) throw new Error(`no reset email was written for ${email}`);
  const inbox = await resendInbox();
  await sendNotification(notificationId, inbox.settings);
  const [sent] = await inbox.emails();
  const token = sent && tokenOfLink(sent.text);
  if (!sent || !token) throw new Error(`Resend got no reset link for ${email}: ${JSON.stringify(sent)}`);
  return { notificationId, sent, token };
}
