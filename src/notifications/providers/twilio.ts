import { baseUrl, callProvider } from './http';
import type { SendResult, SmsMessage, SmsProvider } from './types';

export interface TwilioSettings {
  accountSid: string;
  authToken: string;
  /** The sending number (E.164) or a Messaging Service SID (`MG...`). */
  from: string;
  /** https://api.twilio.com unless TWILIO_API_URL says otherwise (tests aim it at a loopback receiver). */
  apiUrl?: string;
  timeoutMs: number;
}

/** Twilio Programmable Messaging: POST /2010-04-01/Accounts/{sid}/Messages.json, form-encoded, HTTP Basic with the account SID and auth token. */
export function twilioProvider(settings: TwilioSettings): SmsProvider {
  const url = `${baseUrl(settings.apiUrl, 'https://api.twilio.com')}/2010-04-01/Accounts/${encodeURIComponent(settings.accountSid)}/Messages.json`;
  const authorization = `Basic ${btoa(`${settings.accountSid}:${settings.authToken}`)}`;
  return {
    name: 'twilio',
    send(message: SmsMessage): Promise<SendResult> {
      const form = new URLSearchParams({ To: message.to, Body: message.body });
      form.set(settings.from.startsWith('MG') ? 'MessagingServiceSid' : 'From', settings.from);
      return callProvider(
        'twilio',
        url,
        { method: 'POST', headers: { Authorization: authorization, 'Content-Type': 'application/x-www-form-urlencoded' }, body: form.toString() },
        settings.timeoutMs,
        (answer) => (typeof (answer as { sid?: unknown })?.sid === 'string' ? (answer as { sid: string }).sid : null),
      );
    },
  };
}
