import { z } from '@hono/zod-openapi';
import type { EventKind } from '../../lib/define-module';
import type { PayloadsOf } from '../../lib/event-types';
import { currencyField, idField } from '../../lib/event-fields';
import { Money, Timestamp } from '../../lib/schemas';

/**
 * The `data` of the gift card events, one schema per kind (module.ts lists the kinds): the one source of
 * their webhook payloads' shapes. `outboxEvent` type-checks each call's data against its kind's
 * schema (the types merge into src/lib/event-types.ts, so nothing here runs on a write), the OpenAPI
 * document's `webhooks` lists them (src/docs/openapi-webhooks.ts), and test/webhooks/event-payloads.test.ts
 * drives every kind through its real flow and parses what was stored.
 */
export const EVENT_KINDS = {
  'gift_card.issued': {
    data: z.object({
      giftCardId: idField('gc_01JD0000000000000000000000'),
      last4: z.string().openapi({ description: "The last four characters of the card's code (never the code).", example: 'Q7XM' }),
      currency: currencyField,
      amount: Money,
      expiresAt: Timestamp.nullable(),
      recipientEmail: z.string().nullable(),
      recipientName: z.string().nullable(),
      orderId: idField('ord_01JD0000000000000000000000', 'The order that bought it; null for a card staff issued.').nullable(),
    }),
    summary: 'A gift card was issued',
    description: 'Staff issued a gift card (`POST /api/gift-cards`). The code is never in the event.',
  },
} as const satisfies Record<string, EventKind>;

declare module '../../lib/event-types' {
  interface EventPayloads extends PayloadsOf<typeof EVENT_KINDS> {}
}
