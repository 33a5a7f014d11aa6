import { z } from '@hono/zod-openapi';
import type { EventKind } from '../../lib/define-module';
import type { PayloadsOf } from '../../lib/event-types';
import { customerIdField, idField } from '../../lib/event-fields';
import { Timestamp } from '../../lib/schemas';
import { orderNumberField } from '../orders';
import { ReturnLineSchema } from './returns.schemas';

const ReturnEventData = z.object({
  returnId: idField('ret_01JD0000000000000000000000'),
  orderId: idField('ord_01JD0000000000000000000000'),
  orderNumber: orderNumberField,
  customerId: customerIdField,
  lines: z.array(ReturnLineSchema.omit({ id: true })),
});

/**
 * The `data` of the return events, one schema per kind (module.ts lists the kinds): the one source of
 * their webhook payloads' shapes. `outboxEvent` type-checks each call's data against its kind's
 * schema (the types merge into src/lib/event-types.ts, so nothing here runs on a write), the OpenAPI
 * document's `webhooks` lists them (src/docs/openapi-webhooks.ts), and test/webhooks/event-payloads.test.ts
 * drives every kind through its real flow and parses what was stored.
 */
export const EVENT_KINDS = {
  'return.requested': {
    data: ReturnEventData.extend({
      status: z.literal('requested'),
      note: z.string().nullable().openapi({ description: "The customer's words, if any." }),
    }),
    summary: 'A return was requested',
    description: "A customer (within the store's return window) or staff asked to return some of an order's lines.",
  },
  'return.approved': {
    data: ReturnEventData.extend({
      status: z.literal('approved'),
      approvedAt: Timestamp,
      resolution: z.string().nullable().openapi({ description: "Staff's words, if any (where to send the parcel)." }),
    }),
    summary: 'A return was approved',
    description: 'Staff approved a requested return: the customer may send the parcel.',
  },
  'return.rejected': {
    data: ReturnEventData.extend({
      status: z.literal('rejected'),
      closedAt: Timestamp,
      resolution: z.string().nullable().openapi({ description: "Staff's words: why it was rejected." }),
    }),
    summary: 'A return was rejected',
    description: 'Staff rejected a requested or approved return; its units can be returned again.',
  },
  'return.received': {
    data: ReturnEventData.extend({ status: z.literal('received'), receivedAt: Timestamp }),
    summary: 'A return was received',
    description: "The store received a return's parcel; each line's `restockedQuantity` says how many units went back in stock.",
  },
} as const satisfies Record<string, EventKind>;

declare module '../../lib/event-types' {
  interface EventPayloads extends PayloadsOf<typeof EVENT_KINDS> {}
}
