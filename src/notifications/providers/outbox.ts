import type { EmailProvider, SmsProvider } from './types';

/**
 * The local default: sends nothing anywhere. The notification row already holds the rendered
 * message, so "sent" through the outbox means readable at GET /api/notifications (and in the admin
 * panel), like a local mail catcher, without an account at any provider.
 */
export const outboxEmail: EmailProvider = { name: 'outbox', send: async (message) => ({ ok: true, providerMessageId: `outbox:${message.id}` }) };
export const outboxSms: SmsProvider = { name: 'outbox', send: async (message) => ({ ok: true, providerMessageId: `outbox:${message.id}` }) };
