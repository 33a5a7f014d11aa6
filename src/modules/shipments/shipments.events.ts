import { z } from '@hono/zod-openapi';
import type { EventKind } from '../../lib/define-module';
import type { PayloadsOf } from '../../lib/event-types';
import { customerIdField, idField } from '../../lib/event-fields';
import { Timestamp } from '../../lib/schemas';
import { orderNumberField } from '../orders';
import { ShipmentLineSchema, ShipmentSchema } from './shipments.schemas';

/**
 * The `data` of the shipment events, one schema per kind (module.ts lists the kinds): the one source of
 * their webhook payloads' shapes. `outboxEvent` type-checks each call's data against its kind's
 * schema (the types merge into src/lib/event-types.ts, so nothing here runs on a write), the OpenAPI
 * document's `webhooks` lists them (src/docs/openapi-webhooks.ts), and test/webhooks/event-payloads.test.ts
 * drives every kind through its real flow and parses what was stored.
 */
export const EVENT_KINDS = {
  'shipment.shipped': {
    data: ShipmentSchema.pick({ orderId: true, carrier: true, trackingNumber: true, trackingUrl: true }).extend({
      shipmentId: idField('ship_01JD0000000000000000000000'),
      orderNumber: orderNumberField,
      customerId: customerIdField,
      status: z.literal('shipped'),
      shippedAt: Timestamp,
      lines: z.array(ShipmentLineSchema),
    }),
    summary: 'A shipment was shipped',
    description: 'A shipment was created as `shipped` or moved to `shipped`, with its carrier, tracking and lines.',
  },
} as const satisfies Record<string, EventKind>;

declare module '../../lib/event-types' {
  interface EventPayloads extends PayloadsOf<typeof EVENT_KINDS> {}
}
