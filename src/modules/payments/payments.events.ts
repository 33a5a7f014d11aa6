import { z } from '@hono/zod-openapi';
import { REFUND_DESTINATIONS } from '../../db/schema';
import type { EventKind } from '../../lib/define-module';
import type { PayloadsOf } from '../../lib/event-types';
import { currencyField, idField } from '../../lib/event-fields';
import { Money } from '../../lib/schemas';
import { orderNumberField } from '../orders';

const PaymentEventData = z.object({
  paymentId: idField('pay_01JD0000000000000000000000'),
  orderId: idField('ord_01JD0000000000000000000000'),
  orderNumber: orderNumberField,
  provider: z.string().openapi({ example: 'fake' }),
  amount: Money,
  currency: currencyField,
});
/** A refund: what both `refund.created` and `payment.refunded` carry. */
const RefundEventData = PaymentEventData.omit({ provider: true }).extend({
  refundId: idField('re_01JD0000000000000000000000'),
  destination: z
    .enum(REFUND_DESTINATIONS)
    .openapi({ description: "Where the money went: back to the payment, to the customer's store credit, or (`exchange`) to the order a return was exchanged for." }),
  returnId: z.string().nullable().openapi({ description: 'The return the refund is for, if any.' }),
  shippingAmount: Money.openapi({ description: 'The part of `amount` refunding shipping.' }),
  lines: z
    .array(z.object({ orderLineId: idField('oline_01JD0000000000000000000000'), quantity: z.int(), amount: Money }))
    .openapi({ description: 'The order lines refunded, by units and what was paid for them; empty for a refund by amount.' }),
});

/**
 * The `data` of the payment and refund events, one schema per kind (module.ts lists the kinds): the one source of
 * their webhook payloads' shapes. `outboxEvent` type-checks each call's data against its kind's
 * schema (the types merge into src/lib/event-types.ts, so nothing here runs on a write), the OpenAPI
 * document's `webhooks` lists them (src/docs/openapi-webhooks.ts), and test/webhooks/event-payloads.test.ts
 * drives every kind through its real flow and parses what was stored.
 */
export const EVENT_KINDS = {
  'payment.completed': { data: PaymentEventData, summary: 'A payment completed', description: "A payment completed; it is added to the order's `amountPaid`." },
  'payment.failed': {
    data: PaymentEventData.extend({ failureReason: z.string().nullable() }),
    summary: 'A payment failed',
    description: 'A payment was declined or failed at its provider.',
  },
  'payment.refunded': {
    data: RefundEventData,
    summary: 'A refund completed',
    description:
      'A refund completed (one made through the API or at the provider); `amount` is what this refund gave back, to the payment, to store credit or to an exchange. `refund.created` announced it when it was made.',
  },
  'refund.created': {
    data: RefundEventData.extend({
      status: z.enum(['pending', 'completed']).openapi({ description: "`pending` until its provider answers (then `payment.refunded`); an exchange's is `completed` at once." }),
      reason: z.string().nullable().openapi({ description: 'Why, as staff wrote it.' }),
    }),
    summary: 'A refund was made',
    description:
      'A refund was made: through the API (by amount, by line, to store credit, or by an exchange), in the write that made it, or at Stripe (found by its webhook). It names the lines and shipping refunded and what they are worth. ' +
      '`payment.refunded` follows when it completes; a refund its provider refuses emits nothing more (the refund reads `failed`).',
  },
  'payment.disputed': {
    data: PaymentEventData.omit({ provider: true }).extend({
      reason: z.string().openapi({ description: "The provider's reason for the dispute (Stripe's `fraudulent`, `product_not_received`, ...)." }),
      status: z.string().openapi({ description: "The dispute's status at the provider (Stripe's `needs_response`, ...)." }),
    }),
    summary: 'A payment was disputed',
    description: 'A chargeback was opened on a payment at the provider (Stripe `charge.dispute.created`).',
  },
} as const satisfies Record<string, EventKind>;

declare module '../../lib/event-types' {
  interface EventPayloads extends PayloadsOf<typeof EVENT_KINDS> {}
}
