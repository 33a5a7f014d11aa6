import { numberSetting, type Bindings } from '../../env';
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

const timeout = (env: ProviderEnv) => numberSetting(env.NOTIFICATIONS_TIMEOUT_MS, 10_000);
const development = (env: ProviderEnv) => env.ENVIRONMENT === 'development';

/** NOTIFICATIONS_EMAIL_PROVIDER: `outbox` (the default) or `resend` (needs the RESEND_API_KEY secret). */
export function emailProvider(env: ProviderEnv): EmailProvider {
  const name = env.NOTIFICATIONS_EMAIL_PROVIDER || 'outbox';
  if (name === 'outbox') return outboxEmail(development(env));
  if (name === 'resend') {
    if (!env.RESEND_API_KEY) return misconfigured('resend', 'RESEND_API_KEY is not set');
    return resendProvider({ apiKey: env.RESEND_API_KEY, apiUrl: env.RESEND_API_URL, timeoutMs: timeout(env) });
  }
  return misconfigured(name, `unknown NOTIFICATIONS_EMAIL_PROVIDER '${name}' (outbox or resend)`);
}

/** NOTIFICATIONS_SMS_PROVIDER: `outbox` (the default) or `twilio` (needs TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM). */
export function smsProvider(env: ProviderEnv): SmsProvider {
  const name = env.NOTIFICATIONS_SMS_PROVIDER || 'outbox';
  if (name === 'outbox') return outboxSms(development(env));
  if (name === 'twilio') {
    const missing = (['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM'] as const).filter((k) => !env[k]);
    if (missing.length) return misconfigured('twilio', `${missing.join(', ')} not set`);
    return twilioProvider({ accountSid: env.TWILIO_ACCOUNT_SID!, authToken: env.TWILIO_AUTH_TOKEN!, from: env.TWILIO_FROM!, apiUrl: env.TWILIO_API_URL, timeoutMs: timeout(env) });
  }
  return misconfigured(name, `unknown NOTIFICATIONS_SMS_PROVIDER '${name}' (outbox or twilio)`);
}
