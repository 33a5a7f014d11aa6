import { z } from '@hono/zod-openapi';
import type { EventKind } from '../../lib/define-module';
import type { PayloadsOf } from '../../lib/event-types';
import { idField } from '../../lib/event-fields';

/**
 * The `data` of the customer events, one schema per kind (module.ts lists the kinds): the one source of
 * their webhook payloads' shapes. `outboxEvent` type-checks each call's data against its kind's
 * schema (the types merge into src/lib/event-types.ts, so nothing here runs on a write), the OpenAPI
 * document's `webhooks` lists them (src/docs/openapi-webhooks.ts), and test/webhooks/event-payloads.test.ts
 * drives every kind through its real flow and parses what was stored.
 */
export const EVENT_KINDS = {
  'customer.registered': {
    data: z.object({ customerId: idField('user_01JD0000000000000000000000'), email: z.string(), name: z.string().nullable() }),
    summary: 'A customer account was created',
    description: 'A customer account was created, by sign-up or by staff.',
  },
} as const satisfies Record<string, EventKind>;

declare module '../../lib/event-types' {
  interface EventPayloads extends PayloadsOf<typeof EVENT_KINDS> {}
}
