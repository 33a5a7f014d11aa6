import { z } from '@hono/zod-openapi';
import type { EventKind } from '../../lib/define-module';
import { currencyField, idField } from '../../lib/event-fields';
import type { PayloadsOf } from '../../lib/event-types';

/**
 * The `data` of the store credit event (module.ts lists the kinds): the one source of its webhook
 * payload's shape. `outboxEvent` type-checks each call's data against it (the types merge into
 * src/lib/event-types.ts, so nothing here runs on a write), the OpenAPI document's `webhooks` lists
 * it (src/docs/openapi-webhooks.ts), and test/webhooks/event-payloads.test.ts drives it through its
 * real flows and parses what was stored.
 */
export const EVENT_KINDS = {
  'store_credit.changed': {
    data: z.object({
      entryId: idField('sce_01JD0000000000000000000000'),
      customerId: idField('user_01JD0000000000000000000000'),
      amount: z.number().openapi({ description: 'The change, in major units: positive adds credit, negative spends it.', example: -10 }),
      currency: currencyField,
      reason: z.string().openapi({ description: "`refund`, `spent`, `adjustment`, or the store's words.", example: 'refund' }),
      orderId: idField('ord_01JD0000000000000000000000').nullable(),
      refundId: idField('re_01JD0000000000000000000000').nullable(),
      returnId: z.string().nullable(),
      paymentId: idField('pay_01JD0000000000000000000000').nullable(),
    }),
    summary: "A customer's store credit changed",
    description:
      "An entry was added to a customer's store credit ledger: a refund to store credit, a `store_credit` payment spending it, or staff's adjustment. The balance is `GET /api/customers/{id}/credit`.",
  },
} as const satisfies Record<string, EventKind>;

declare module '../../lib/event-types' {
  interface EventPayloads extends PayloadsOf<typeof EVENT_KINDS> {}
}
