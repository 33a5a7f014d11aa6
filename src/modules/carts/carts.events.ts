import { z } from '@hono/zod-openapi';
import type { EventKind } from '../../lib/define-module';
import type { PayloadsOf } from '../../lib/event-types';
import { currencyField, customerIdField, idField } from '../../lib/event-fields';
import { Timestamp } from '../../lib/schemas';

/**
 * The `data` of the cart events, one schema per kind (module.ts lists the kinds): the one source of
 * their webhook payloads' shapes. `outboxEvent` type-checks each call's data against its kind's
 * schema (the types merge into src/lib/event-types.ts, so nothing here runs on a write), the OpenAPI
 * document's `webhooks` lists them (src/docs/openapi-webhooks.ts), and test/webhooks/event-payloads.test.ts
 * drives every kind through its real flow and parses what was stored.
 */
export const EVENT_KINDS = {
  'cart.abandoned': {
    data: z.object({
      cartId: idField('cart_01JD0000000000000000000000'),
      customerId: customerIdField,
      email: z.string(),
      currency: currencyField,
      idleSince: Timestamp.openapi({ description: 'When the cart was last changed.' }),
      abandonedAt: Timestamp,
      recoveryId: z.string().openapi({ description: "Names the cart's recovery (the reminder's link token is derived from it with a key only the store holds)." }),
    }),
    summary: 'A cart was abandoned',
    description: 'A cart with lines and an email was left unchanged for CART_ABANDONED_AFTER_MINUTES (once per cart).',
  },
} as const satisfies Record<string, EventKind>;

declare module '../../lib/event-types' {
  interface EventPayloads extends PayloadsOf<typeof EVENT_KINDS> {}
}
