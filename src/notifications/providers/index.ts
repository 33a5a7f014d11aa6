import type { Bindings } from '../../env';
import { config } from '../../config';
import { outboxEmail, outboxSms } from './outbox';
import { resendProvider } from './resend';
import { twilioProvider } from './twilio';
import type { EmailProvider, SendResult, SmsProvider } from './types';

export type { EmailMessage, EmailProvider, SendResult, SmsMessage, SmsProvider } from './types';

export type ProviderEnv = Pick<
  Bindings,
  | 'NOTIFICATIONS_EMAIL_PROVIDER'
  | 'NOTIFICATIONS_SMS_PROVIDER'
  | 'NOTIFICATIONS_TIMEOUT_MS'
  | 'RESEND_API_KEY'
  | 'RESEND_API_URL'
  | 'TWILIO_ACCOUNT_SID'
  | 'TWILIO_AUTH_TOKEN'
  | 'TWILIO_FROM'
  | 'TWILIO_API_URL'
  | 'ENVIRONMENT'
>;

/** A provider that cannot work as configured: every message fails for good, saying why, so the log shows it. */
function misconfigured(name: string, problem: string): EmailProvider & SmsProvider {
  const result: SendResult = { ok: false, retryable: false, error: `${name}: ${problem}` };
  return { name, send: async () => result };
}

const development = (env: ProviderEnv) => config(env).ENVIRONMENT === 'development';

/** NOTIFICATIONS_EMAIL_PROVIDER: `outbox` (the default) or `resend` (needs the RESEND_API_KEY secret). */
export function emailProvider(env: ProviderEnv): EmailProvider {
  const settings = config(env);
  if (settings.NOTIFICATIONS_EMAIL_PROVIDER === 'outbox') return outboxEmail(development(env));
  if (!settings.RESEND_API_KEY) return misconfigured('resend', 'RESEND_API_KEY is not set');
  return resendProvider({ apiKey: settings.RESEND_API_KEY, apiUrl: settings.RESEND_API_URL, timeoutMs: settings.NOTIFICATIONS_TIMEOUT_MS });
}

/** NOTIFICATIONS_SMS_PROVIDER: `outbox` (the default) or `twilio` (needs TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM). */
export function smsProvider(env: ProviderEnv): SmsProvider {
  const settings = config(env);
  if (settings.NOTIFICATIONS_SMS_PROVIDER === 'outbox') return outboxSms(development(env));
  const { TWILIO_ACCOUNT_SID: accountSid, TWILIO_AUTH_TOKEN: authToken, TWILIO_FROM: from } = settings;
  if (!accountSid || !authToken || !from) {
    const missing = (['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM'] as const).filter((k) => !settings[k]);
    return misconfigured('twilio', `${missing.join(', ')} not set`);
  }
  return twilioProvider({ accountSid, authToken, from, apiUrl: settings.TWILIO_API_URL, timeoutMs: settings.NOTIFICATIONS_TIMEOUT_MS });
}
