import { z } from '@hono/zod-openapi';
import { payments, REFUND_DESTINATIONS, refunds } from '../../db/schema';
import { MAX_MAJOR_AMOUNT } from '../../lib/money';
import { createSelectSchema, Timestamp } from '../../lib/schemas';
import { CHARGEABLE_PROVIDERS } from './providers/registry';
import { GiftCardCode } from '../gift-cards/schemas';

/** Shapes of payments and refunds on the wire: the tables, with money in the order currency's major units. */

const major = (description: string) => z.number().openapi({ description: `${description}, in major units of \`currency\`.`, example: 19.99 });

export const PaymentSchema = createSelectSchema(payments, {
  amount: major('Amount charged'),
  amountRefunded: major('Amount refunded so far'),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  disputeStatus: z
    .string()
    .nullable()
    .openapi({ description: "The status of a dispute (chargeback) opened at the provider (Stripe's: `needs_response`, `won`, `lost`, ...); null when there is none." }),
})
  // Kept for resuming the charge (settle.ts), not part of the payment.
  .omit({ providerInput: true, requestKey: true })
  .openapi('Payment', {
    description:
      "`status`: `completed` (counted in the order's amountPaid), `failed` (nothing taken; see failureReason), `pending` (the provider has not answered yet), " +
      "`partially_refunded`, `refunded`. `providerReference`: the provider's id (a Stripe PaymentIntent `pi_…`) or, for `manual`, your reference.",
  });
export type Payment = z.infer<typeof PaymentSchema>;

/** The answer to starting a payment: the payment, and for a card payment still to be confirmed the secret Stripe.js confirms it with. */
export const PaymentAttemptSchema = PaymentSchema.extend({
  clientSecret: z.string().nullable().openapi({
    description:
      "For a `pending` `stripe` payment: the PaymentIntent's client secret, for `stripe.confirmPayment` in the browser. Null otherwise. Not stored by the store; ask again (the same call returns the open payment) to get it again.",
  }),
}).openapi('PaymentAttempt');

export const RefundSchema = createSelectSchema(refunds, {
  amount: major('Amount refunded'),
  shippingAmount: major('The part of `amount` refunding shipping'),
  destination: z.enum(REFUND_DESTINATIONS).openapi({
    description:
      "Where the money went: back to the payment's provider, to the customer's store credit, or (`exchange`) to the order a return was exchanged for, as its `exchange` payment.",
  }),
  returnId: z.string().nullable().openapi({ description: 'The return this refund is for, if any.' }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
})
  .omit({ requestKey: true })
  .openapi('Refund', {
    description:
      "`status`: `pending` (the provider has not answered yet; settled within minutes), `completed` (counted in the payment's and order's amountRefunded), `failed` (see failureReason).",
  });
export type Refund = z.infer<typeof RefundSchema>;

/** A positive amount in major units; its decimals are checked against the order's currency. */
const Amount = z.number().positive().max(MAX_MAJOR_AMOUNT);

export const CreatePaymentBody = z
  .strictObject({
    provider: z.enum(CHARGEABLE_PROVIDERS).openapi({
      description:
        'The payment provider. `manual` records money taken outside the store (and serves tests); `stripe` starts a card payment (a PaymentIntent) ' +
        'that the customer confirms in the browser with Stripe.js, available when STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set (422 otherwise). ' +
        "`store_credit` spends the order's customer's store credit in the order's currency, completed at once; more than the balance is 409 (the payment kept `failed`), a guest order 422. " +
        '`gift_card` pays with the gift card whose `code` is given: `amount`, or what it holds up to what is owed.',
    }),
    amount: Amount.optional().openapi({ description: 'Major units of the order currency. Defaults to what is still owed (total - amountPaid).', example: 19.99 }),
    reference: z
      .string()
      .trim()
      .min(1)
      .max(200)
      .optional()
      .openapi({ description: "`manual` only: your reference for the money (a bank transfer's), stored as providerReference." }),
    code: GiftCardCode.optional().openapi({
      description: "`gift_card` only, and required: the card's code. Wrong codes are locked out like sign-in (`docs/gift-cards.md`).",
    }),
    details: z
      .record(z.string().max(100), z.unknown())
      .optional()
      .openapi({ description: 'Provider-specific input. For `manual`, `{ "simulateFailure": true }` makes the charge fail.', example: {} }),
  })
  .openapi('CreatePayment');
export type CreatePaymentInput = z.infer<typeof CreatePaymentBody>;

const RefundLineBody = z.strictObject({
  orderLineId: z.string().min(1).max(100).openapi({ example: 'oline_01JD0000000000000000000000' }),
  quantity: z.int().positive().max(1_000_000).openapi({ description: 'Units of the line to refund.', example: 1 }),
});

export const CreateRefundBody = z
  .strictObject({
    amount: Amount.optional().openapi({
      description:
        'Major units of the payment currency. Defaults to what is left to refund on the payment or, with `lines` or `shipping`, to what was paid for them (docs/refunds.md); ' +
        'given with them, it overrides that (staff decide), still at most what is left on the payment.',
      example: 5,
    }),
    reason: z.string().trim().min(1).max(500).optional(),
    lines: z
      .array(RefundLineBody)
      .min(1)
      .max(200)
      .refine((lines) => new Set(lines.map((l) => l.orderLineId)).size === lines.length, 'names a line twice')
      .optional()
      .openapi({
        description:
          "The order's lines and units refunded: each line's refunded units (`quantityRefunded` on the order) never exceed those bought (409). What they are worth is " +
          'what was paid for them: the line total (discount and tax as at checkout) prorated by units, rounded half up, the last units taking exactly what is left.',
      }),
    shipping: z
      .union([z.literal(true), Amount])
      .optional()
      .openapi({ description: 'Refund shipping too: `true` for all that is left of what was charged for it (with its tax when added on top), or an amount of it.' }),
    destination: z
      .enum(['payment', 'store_credit'])
      .optional()
      .openapi({
        description:
          "`payment` (the default): back to the payment's provider. `store_credit`: to the customer's store credit instead (422 for a guest order); it still counts against " +
          "what is left to refund on the payment. A `store_credit` or `exchange` payment's refunds always go to store credit.",
      }),
    returnId: z.string().min(1).max(100).optional().openapi({ description: 'The return this refund is for, kept on the refund and its store credit entry.' }),
  })
  .openapi('CreateRefund');
export type CreateRefundInput = z.infer<typeof CreateRefundBody>;
