/**
 * Providers send one rendered message. Each answers what happened in the same shape, so the queue
 * consumer records and retries them all alike: a retryable failure (a network error, a timeout,
 * 408, 429, 5xx) is tried again with backoff; a permanent one (any other 4xx: a bad address, bad
 * credentials) fails the message at once.
 */
export type SendResult = { ok: true; providerMessageId: string | null } | { ok: false; retryable: boolean; error: string };

export interface EmailMessage {
  /** The notification id: providers that support it use it as their idempotency key. */
  id: string;
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string | null;
  /** The text holds a credential (a reset link) that the stored copy of the message has redacted. */
  confidential?: boolean;
}

export interface SmsMessage {
  id: string;
  to: string;
  body: string;
  /** As EmailMessage's. */
  confidential?: boolean;
}

export interface EmailProvider {
  readonly name: string;
  send(message: EmailMessage): Promise<SendResult>;
}

export interface SmsProvider {
  readonly name: string;
  send(message: SmsMessage): Promise<SendResult>;
}
