import { z } from '@hono/zod-openapi';
import { Money } from '../../lib/schemas';
import { OrderDetailSchema } from '../orders/schemas';
import { RefundSchema } from '../payments/schemas';
import { quantity, ReturnSchema, text } from './returns.schemas';

/** Shapes of an exchange on the wire (src/modules/returns/exchanges.ts): apart from returns.schemas.ts, which the event payloads import. */

export const ExchangeBody = z
  .strictObject({
    lines: z
      .array(
        z.strictObject({
          variantId: text(200).openapi({ example: 'var_01JD0000000000000000000000' }),
          quantity,
        }),
      )
      .min(1)
      .max(50)
      .openapi({
        description: "What the customer gets instead: variants and quantities, priced as the store sells them now in the first order's currency and taxed at its address.",
      }),
    shippingMethodId: text(200)
      .optional()
      .openapi({ description: "How the new order ships (not charged: an exchange ships free). Default: the cheapest method that serves the first order's address." }),
    paymentId: text(200).optional().openapi({ description: "The first order's payment the returned value moves from (default: the one with the most left to refund)." }),
    balanceTo: z
      .enum(['payment', 'store_credit'])
      .optional()
      .openapi({ description: "Where a value beyond the new order's cost goes: back to that payment (default) or to the customer's store credit (422 for a guest order)." }),
  })
  .openapi('CreateExchange');
export type ExchangeInput = z.infer<typeof ExchangeBody>;

export const ExchangeSchema = z
  .object({
    return: ReturnSchema.openapi({ description: 'The return, now `refunded`, naming the new order in `exchangeOrderId`.' }),
    order: OrderDetailSchema.openapi({ description: 'The new order: `processing` when the value paid for it all, else `pending` until the customer pays `amountDue`.' }),
    value: Money.openapi({ description: "What the returned units are worth: what was paid for them (docs/refunds.md's proration)." }),
    credit: Money.openapi({ description: "The part of `value` paid into the new order (its `exchange` payment): the lesser of `value` and the new order's total." }),
    amountDue: Money.openapi({ description: 'What the customer still pays for the new order.' }),
    balanceRefund: RefundSchema.nullable().openapi({ description: "The refund of `value` beyond the new order's total, to `balanceTo`; null when there is none." }),
    balanceRefundError: z
      .string()
      .nullable()
      .openapi({ description: 'Why that refund could not be made (the provider refused it): the exchange stands and this amount is for staff to refund.' }),
  })
  .openapi('Exchange');
export type Exchange = z.infer<typeof ExchangeSchema>;
