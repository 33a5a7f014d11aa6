import type { EmailProvider, SmsProvider } from './types';

/**
 * The local default: sends nothing anywhere. The notification row already holds the rendered
 * message, so "sent" through the outbox means readable at GET /api/notifications (and in the admin
 * panel), like a local mail catcher, without an account at any provider.
 *
 * A confidential message (a password-reset email) is stored with its link redacted, so the real
 * text exists only in the call to the provider. Under ENVIRONMENT=development (`npm run dev`) the
 * outbox prints it as one log line, `outbox (development only): the message as sent`, in the
 * `wrangler dev` console: that is where a developer finds the link. Anywhere else it is dropped.
 */
function printInDevelopment(development: boolean, message: { id: string; to: string; confidential?: boolean }, texts: Record<string, string | null>): void {
  if (!development || !message.confidential) return;
  console.log(JSON.stringify({ level: 'info', message: 'outbox (development only): the message as sent', notificationId: message.id, to: message.to, ...texts }));
}

export function outboxEmail(development: boolean): EmailProvider {
  return {
    name: 'outbox',
    send: async (message) => {
      printInDevelopment(development, message, { subject: message.subject, text: message.text });
      return { ok: true, providerMessageId: `outbox:${message.id}` };
    },
  };
}

export function outboxSms(development: boolean): SmsProvider {
  return {
    name: 'outbox',
    send: async (message) => {
      printInDevelopment(development, message, { text: message.body });
      return { ok: true, providerMessageId: `outbox:${message.id}` };
    },
  };
}
