import { z } from '@hono/zod-openapi';
import { ORDER_STATUSES } from '../../db/schema';
import type { EventKind } from '../../lib/define-module';
import type { PayloadsOf } from '../../lib/event-types';
import { customerIdField, currencyField, idField } from '../../lib/event-fields';
import { Money } from '../../lib/schemas';
import { AppliedPromotionSchema } from '../promotions/schemas';
import { OrderSchema, OrderShippingMethodSchema } from './orders.schemas';

/** An order's number, as every event about an order carries it. */
export const orderNumberField = OrderSchema.shape.number;

const OrderEventData = z.object({
  orderId: idField('ord_01JD0000000000000000000000'),
  orderNumber: orderNumberField,
  customerId: customerIdField,
  email: z.string(),
  total: Money,
  currency: currencyField,
  status: z.enum(ORDER_STATUSES),
});
const OrderPlacedEventData = OrderEventData.extend({
  taxTotal: Money.openapi({ description: 'The tax of the order, inside `total` when pricesIncludeTax, else part of it added on top.' }),
  pricesIncludeTax: z.boolean().openapi({ description: "Whether the order's prices included tax." }),
  shippingMethod: OrderShippingMethodSchema.nullable().openapi({ description: 'How the order ships, as the order keeps it.' }),
  promotions: z.array(AppliedPromotionSchema).openapi({
    description: "The order's `promotions`: what each promotion (and the coupon) took off in all, shipping's part as `shippingAmount`; the order's lines show them per line.",
  }),
});
const OrderChangeEventData = OrderEventData.extend({
  previousStatus: z.enum(ORDER_STATUSES),
  reason: z.string().optional().openapi({ description: 'Why the order moved, when the system says: `payment_expired` for an unpaid order cancelled after ORDER_PAYMENT_TTL.' }),
});

/**
 * The `data` of the order events, one schema per kind (module.ts lists the kinds): the one source of
 * their webhook payloads' shapes. `outboxEvent` type-checks each call's data against its kind's
 * schema (the types merge into src/lib/event-types.ts, so nothing here runs on a write), the OpenAPI
 * document's `webhooks` lists them (src/docs/openapi-webhooks.ts), and test/webhooks/event-payloads.test.ts
 * drives every kind through its real flow and parses what was stored.
 */
export const EVENT_KINDS = {
  'order.placed': { data: OrderPlacedEventData, summary: 'An order was placed', description: 'An order was placed (status `pending`), by checkout or `POST /api/orders`.' },
  'order.updated': {
    data: OrderChangeEventData,
    summary: "An order's status changed",
    description: "An order's status changed: paid (`processing`), shipped, completed, cancelled or refunded. A cancellation also sends `order.cancelled`.",
  },
  'order.cancelled': {
    data: OrderChangeEventData,
    summary: 'An order was cancelled',
    description: 'An order was cancelled, by staff, by its customer, or by the store for want of payment (`reason: "payment_expired"`); its stock and coupon use were returned.',
  },
} as const satisfies Record<string, EventKind>;

declare module '../../lib/event-types' {
  interface EventPayloads extends PayloadsOf<typeof EVENT_KINDS> {}
}
