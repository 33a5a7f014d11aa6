import { z } from '@hono/zod-openapi';
import type { EventKind } from '../../lib/define-module';
import type { PayloadsOf } from '../../lib/event-types';
import { idField } from '../../lib/event-fields';

/**
 * The `data` of the stock events, one schema per kind (module.ts lists the kinds): the one source of
 * their webhook payloads' shapes. `outboxEvent` type-checks each call's data against its kind's
 * schema (the types merge into src/lib/event-types.ts, so nothing here runs on a write), the OpenAPI
 * document's `webhooks` lists them (src/docs/openapi-webhooks.ts), and test/webhooks/event-payloads.test.ts
 * drives every kind through its real flow and parses what was stored.
 */
export const EVENT_KINDS = {
  'inventory.low': {
    data: z.object({
      productId: idField('prod_01JD0000000000000000000000'),
      variantId: idField('var_01JD0000000000000000000000'),
      sku: z.string().nullable(),
      quantity: z.int().openapi({ description: 'Units left.' }),
      threshold: z.int().openapi({ description: "The low-stock threshold in force: the variant's, else its product's, else the store's." }),
    }),
    summary: 'A variant ran low on stock',
    description: 'A stock change took a variant from above its low-stock threshold to at or below it: once per crossing, and at most once an hour per variant.',
  },
} as const satisfies Record<string, EventKind>;

declare module '../../lib/event-types' {
  interface EventPayloads extends PayloadsOf<typeof EVENT_KINDS> {}
}
