import { baseUrl, callProvider } from './http';
import type { EmailMessage, EmailProvider, SendResult } from './types';

export interface ResendSettings {
  apiKey: string;
  /** https://api.resend.com unless RESEND_API_URL says otherwise (tests aim it at a loopback receiver). */
  apiUrl?: string;
  timeoutMs: number;
}

/** Resend (resend.com/docs/api-reference/emails/send-email): POST /emails with a bearer key; the notification id is the Idempotency-Key. */
export function resendProvider(settings: ResendSettings): EmailProvider {
  const url = `${baseUrl(settings.apiUrl, 'https://api.resend.com')}/emails`;
  return {
    name: 'resend',
    send(message: EmailMessage): Promise<SendResult> {
      const body = { from: message.from, to: [message.to], subject: message.subject, text: message.text, ...(message.html ? { html: message.html } : {}) };
      return callProvider(
        'resend',
        url,
        {
          method: 'POST',
          headers: { Authorization: `Bearer ${settings.apiKey}`, 'Content-Type': 'application/json', 'Idempotency-Key': message.id },
          body: JSON.stringify(body),
        },
        settings.timeoutMs,
        (answer) => (typeof (answer as { id?: unknown })?.id === 'string' ? (answer as { id: string }).id : null),
      );
    },
  };
}
